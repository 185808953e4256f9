import type { Handler, JsonValue } from '@orchestra/core';
import { evaluateCheck, type DodCheck } from '../dod.js';
import { readSlot } from '../slots.js';
import { taskOf, workspaceOf } from './recipe-attributes.js';

/** The stage file of failed checks, one JSON line each. */
export const FINDINGS_FILE = 'findings.jsonl';

/**
 * The Definition of Done (`recipe.dod`), after phase B: evaluates every
 * check on the slots (and the workspace, for files); writes `dod.json` with
 * every result and `findings.jsonl` with one finding per failed check
 * (check, expression, actual value, run, task); succeeds with
 * `recipe.state=done` when all pass, else fails (no retry) with
 * `recipe.state=failed`.
 */
export const dodHandler: Handler = {
  async execute(input) {
    const { graph, stage } = input;
    const checks = JSON.parse(input.node.attributes['recipe.checks'] ?? '[]') as DodCheck[];
    const task = taskOf(graph, input.context);
    const scope = { task, slot: (s: string) => readSlot(input.context, s)?.data, arg: (name: string) => input.context.get(name) as JsonValue | undefined };
    const results = checks.map((check) => evaluateCheck(check, scope, workspaceOf(graph, input.workdir)));
    const at = new Date().toISOString();
    const failed = results.filter((r) => !r.passed);
    await stage.write('dod.json', `${JSON.stringify(results, null, 2)}\n`);
    await stage.write(FINDINGS_FILE, failed.map((r) => `${JSON.stringify({ check: r.name, expression: r.expression, kind: r.kind, actual: r.actual, run_id: input.run.id, recipe: graph.attributes['recipe.id'] ?? null, task, at })}\n`).join(''));
    const contextUpdates: Record<string, JsonValue> = { 'recipe.state': failed.length ? 'failed' : 'done', 'recipe.findings': failed.length };
    if (!failed.length) return { status: 'success', notes: `Definition of Done: ${results.length} check${results.length === 1 ? '' : 's'} passed`, contextUpdates };
    return {
      status: 'fail',
      retryable: false,
      failureReason: `Definition of Done: ${failed.length} of ${results.length} checks failed (${failed.map((r) => `${r.name}: ${r.expression} was ${JSON.stringify(r.actual)}`).join('; ')})`,
      contextUpdates,
    };
  },
};
