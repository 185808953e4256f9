/**
 * The brand of every {@link OrchestraError}: a key of the global symbol
 * registry, so every copy of `@orchestra/core` in a process (the CLI's
 * bundle, a library in `node_modules`, a second version nested under
 * another package) uses the same one. Any code can test for it without
 * importing orchestra: `error[Symbol.for('orchestra.error')] === true`.
 */
const BRAND = Symbol.for('orchestra.error');

/**
 * Whether `value` is an error orchestra threw on purpose, optionally with
 * the given `code`. It reads the brand, not the prototype chain, so it holds
 * for an error made by another copy of `@orchestra/core` (or of any package
 * built on it): the check to use wherever an error may cross a package
 * boundary.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { isOrchestraError, loadPipeline, runPipeline } from '@orchestra/core';
 *
 * const { graph } = loadPipeline(`digraph Notes {
 *   start [shape=Mdiamond]
 *   exit  [shape=Msquare]
 *   draft [prompt="Draft the notes"]
 *   start -> draft -> exit
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 * try {
 *   // An LLM stage and no backend: refused before anything is written.
 *   await runPipeline(graph, { logsRoot: join(mkdtempSync(join(tmpdir(), 'notes-')), 'run') });
 * } catch (error) {
 *   // With a code, the check narrows `error.code` to it.
 *   if (isOrchestraError(error, 'ORCH_NO_BACKEND')) console.log(error.code, error.message);
 *   else throw error;
 * }
 * // Prints:
 * // ORCH_NO_BACKEND this pipeline has LLM stages (draft) but no backend runs them: pass a CodergenBackend to runPipeline (createModelBackend or createChatBackend from @orchestra/llm, or simulationBackend)
 * ```
 */
export function isOrchestraError<Code extends string = string>(value: unknown, code?: Code): value is OrchestraError<Code> {
  if (typeof value !== 'object' || value === null) return false;
  const branded = value as { [BRAND]?: unknown; code?: unknown };
  return branded[BRAND] === true && typeof branded.code === 'string' && (code === undefined || branded.code === code);
}

/**
 * Base class of every error orchestra throws on purpose. `code` is stable and
 * documented; messages may change. Each package types its codes as a union
 * (`CoreErrorCode`, `LlmErrorCode`, …) and its error classes narrow `Code`
 * to theirs.
 *
 * `instanceof OrchestraError` reads the same brand as
 * {@link isOrchestraError}, so it also holds across copies of the package.
 * `instanceof` a subclass (`ValidationError`, …) is the ordinary prototype
 * check: it holds for errors of the same copy only; across copies, test the
 * code (`isOrchestraError(error, 'ORCH_VALIDATION')`).
 *
 * @typeParam Code - the codes this error can carry.
 */
export class OrchestraError<Code extends string = string> extends Error {
  /** Stable, machine-readable error code, e.g. `ORCH_VALIDATION`. */
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OrchestraError';
    this.code = code;
  }

  /** `instanceof OrchestraError` by brand (any copy of the package); `instanceof` a subclass by prototype. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === OrchestraError ? isOrchestraError(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  static {
    Object.defineProperty(this.prototype, BRAND, { value: true });
  }
}
