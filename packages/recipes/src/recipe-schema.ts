import { z } from 'zod';

/** Names of slots, steps and checks: a letter or `_`, then letters, digits or `_`. */
export const SLOT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Recipe ids, tool, role and template names: letters, digits, `_` and `-`. */
export const RECIPE_NAME = /^[A-Za-z][A-Za-z0-9_-]*$/;
/** The reference to the task's description, in `args`. */
export const TASK_DESCRIPTION = 'TASK_DESCRIPTION';
/** The reference to the run's arguments (`$args.scene_number`): the router's `initial_args` of a planned task, or `--set` values. */
export const ARGS = 'args';

const name = (what: string) => z.string({ error: `expected ${what}` }).regex(RECIPE_NAME, { error: `expected ${what} (letters, digits, _ and -, starting with a letter)` });
const slot = z.string({ error: 'expected a slot name' }).regex(SLOT_NAME, { error: 'expected a slot name (letters, digits and _, not starting with a digit)' });

/** A shape's message for a value that is not it; unknown keys keep zod's own message, which names them. */
const shape = (message: string) => ({ error: (issue: { code?: string }) => (issue.code === 'unrecognized_keys' ? undefined : message) });

const jsonValue: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(jsonValue), z.record(z.string(), jsonValue)]));

/** A phase-A step: a tool called with arguments (`$TASK_DESCRIPTION`, `$slot`, `$slot[0]`, `$slot.field` in strings), filling slots. */
export const ToolStepSchema = z.strictObject({
  tool: name('a tool name'),
  args: z.record(z.string(), jsonValue, { error: 'expected a mapping of argument names to values' }).optional(),
  outputs: z.array(slot, { error: 'expected a list of slot names' }).min(1, { error: 'a step fills at least one slot' }),
}, shape('expected a step like { tool: file_locator, args: { search: $TASK_DESCRIPTION }, outputs: [scenePaths] }'));

/** A phase-B step: a role (from orchestra.yaml `roles:`) that reads slots and writes one, with no tools. */
export const AgentStepSchema = z.strictObject({
  agent: name('a role name'),
  input: z.array(slot, { error: 'expected a list of slot names' }).optional(),
  output: slot,
  prompt_type: name('a template name'),
}, shape('expected a step like { agent: writer, input: [scene_brief], output: draft, prompt_type: draft_scene }'));

/** A command tool a recipe declares: JSON arguments on stdin, JSON `{ data, summary }` on stdout. */
export const CommandToolSchema = z.strictObject({
  command: z.array(z.string({ error: 'expected a string' }).min(1), { error: 'expected the command as a list, like [node, tools/count.mjs]' }).min(1, { error: 'expected the command as a list, like [node, tools/count.mjs]' }),
  description: z.string().optional(),
  timeout: z.string().regex(/^\d+(ms|s|m)$/, { error: 'expected a duration like 30s' }).optional(),
}, shape('expected a mapping like { command: [node, tools/count.mjs] }'));

/** One Definition-of-Done check: `name: expression` (`$slot[0]` a file exists when the name ends in `_exists`, `$a.b == true`, `$x != null`). */
export const DodCheckSchema = z
  .record(slot, z.string({ error: 'expected the check as an expression string, like "$critique != null"' }), { error: 'expected a check like { critique_exists: "$critique != null" }' })
  .refine((check) => Object.keys(check).length === 1, { error: 'each check is one name: expression pair' });

/** A recipe file (`recipes/<id>.yaml`). */
export const RecipeSchema = z.strictObject({
  recipe_id: name('the recipe id'),
  description: z.string().optional(),
  tools: z.record(z.string().regex(RECIPE_NAME), CommandToolSchema, { error: 'expected a mapping of tool names to { command: [...] }' }).optional(),
  phase_a: z.strictObject({ steps: z.array(ToolStepSchema, { error: 'expected a list of steps' }) }, shape('expected a mapping (steps:)')).optional(),
  phase_b: z.strictObject({ pipeline: z.array(AgentStepSchema, { error: 'expected a list of agent steps' }).min(1, { error: 'phase_b needs at least one agent step' }) }, shape('expected a mapping (pipeline:)')),
  dod: z.array(DodCheckSchema, { error: 'expected a list of checks' }).optional(),
}, shape('expected a recipe: recipe_id, phase_a, phase_b, dod'));

/** A validated recipe. */
export type Recipe = z.output<typeof RecipeSchema>;
/** A phase-A step. */
export type ToolStep = z.output<typeof ToolStepSchema>;
/** A phase-B step. */
export type AgentStep = z.output<typeof AgentStepSchema>;
/** A declared command tool. */
export type CommandToolConfig = z.output<typeof CommandToolSchema>;
