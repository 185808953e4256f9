import type { JsonValue } from '@orchestra/core';

/** What a phase-A tool gets besides its arguments. */
export interface RecipeToolContext {
  /** The project directory the tool works in (the agent workspace of the project's orchestra.yaml); paths it reads or returns are relative to it. */
  workspace: string;
  /** Aborted when the run stops. */
  signal: AbortSignal;
}

/** A phase-A tool's result: the data its output slots are filled from, and a one-line summary agents see. */
export interface RecipeToolResult {
  /**
   * JSON. A step with several `outputs` fills each slot from the key of the
   * same name; a step with one output gets that key when the data is an
   * object that has it, else the whole data.
   */
  data: JsonValue;
  /** One or two sentences on what was found, injected into agents' prompts. */
  summary: string;
}

/**
 * A phase-A tool: an atom with a JSON-in/JSON-out contract, deterministic,
 * with no model. Built-ins are registered in code (`BUILT_IN_TOOLS`), a
 * library user registers functions of their own, and a recipe may declare
 * command tools (JSON on stdin, JSON on stdout).
 */
export interface RecipeTool {
  name: string;
  /** One line: what it does, its arguments and its output keys. */
  description: string;
  /** Argument names it requires. */
  requiredArgs?: readonly string[];
  /** Output keys it gives (for the static check of a step's `outputs`); undefined: any. */
  outputs?: readonly string[];
  run(args: Readonly<Record<string, JsonValue>>, context: RecipeToolContext): Promise<RecipeToolResult> | RecipeToolResult;
}

/** A failure of a tool that is the input's fault (a missing file, a bad argument): its message is shown as it is. */
export class RecipeToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecipeToolError';
  }
}
