import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JsonValue, RunContext } from '@orchestra/core';
import type { FidelityMode, RunView } from '@orchestra/core/handlers';

/** The modes that start a fresh session with a preamble (every mode but `full`). */
export type PreambleMode = Exclude<FidelityMode, 'full'>;

/**
 * Approximate token budget of each preamble (spec §5.4 table). Tokens are
 * estimated as characters ÷ 4; a preamble never exceeds its budget.
 */
export const PREAMBLE_TOKEN_BUDGETS: Readonly<Record<PreambleMode, number>> = {
  truncate: 100,
  compact: 1000,
  'summary:low': 600,
  'summary:medium': 1500,
  'summary:high': 3000,
};

/** Characters per token in the budget estimate. */
export const CHARS_PER_TOKEN = 4;

/** What a preamble is built from. */
export interface PreambleInput {
  mode: PreambleMode;
  run: RunView;
  context: RunContext;
  /** The stage the preamble is for. */
  nodeId: string;
}

/** Context keys the engine keeps for itself: not worth the model's attention. */
function isInternalKey(key: string): boolean {
  return key.startsWith('internal.') || key === 'current_node' || key === 'graph.goal' || key === 'outcome' || key === 'preferred_label';
}

function oneLine(value: JsonValue, limit: number): string {
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(/\s+/g, ' ').trim();
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/** The start of a completed stage's response.md (the run directory contract), if it has one. */
function responseExcerpt(run: RunView, nodeId: string, limit: number): string | undefined {
  try {
    const text = readFileSync(join(run.logsRoot, nodeId, 'response.md'), 'utf8');
    return text.trim() ? oneLine(text, limit) : undefined;
  } catch {
    return undefined;
  }
}

/** Completed nodes (the latest visit of each, in order of their last completion). */
function stages(run: RunView): string[] {
  const seen = new Set<string>();
  const order: string[] = [];
  for (let i = run.completedNodes.length - 1; i >= 0; i--) {
    const id = run.completedNodes[i] as string;
    if (seen.has(id)) continue;
    seen.add(id);
    order.push(id);
  }
  return order.reverse();
}

interface Detail {
  stages: number;
  valueLimit: number;
  values: number;
  responses: number;
  responseLimit: number;
  prose: boolean;
}

const DETAIL: Readonly<Record<Exclude<PreambleMode, 'truncate'>, Detail>> = {
  compact: { stages: 30, valueLimit: 120, values: 20, responses: 0, responseLimit: 0, prose: false },
  'summary:low': { stages: 5, valueLimit: 80, values: 5, responses: 1, responseLimit: 200, prose: true },
  'summary:medium': { stages: 15, valueLimit: 300, values: 20, responses: 3, responseLimit: 400, prose: true },
  'summary:high': { stages: 60, valueLimit: 1000, values: 60, responses: 8, responseLimit: 1200, prose: true },
};

function cap(text: string, mode: PreambleMode): string {
  const limit = PREAMBLE_TOKEN_BUDGETS[mode] * CHARS_PER_TOKEN;
  return text.length <= limit ? text : `${text.slice(0, limit - 2)}\n…`;
}

/**
 * The text a fresh LLM session starts with (spec §5.4): for `truncate` only
 * the goal and the run id; for `compact` a bullet list of the completed
 * stages with their outcomes and the context values; for the `summary:*`
 * modes a short account of the run with increasing detail — recent stage
 * outcomes, context values, and the start of earlier stages' responses
 * (from their `response.md`). Each stays within its budget
 * ({@link PREAMBLE_TOKEN_BUDGETS}).
 */
export function buildPreamble({ mode, run, context, nodeId }: PreambleInput): string {
  const goal = context.get('graph.goal');
  const head = [`You are working on stage "${nodeId}" of a multi-stage pipeline (run ${run.id}).`];
  if (typeof goal === 'string' && goal.trim()) head.push(`Pipeline goal: ${oneLine(goal, 500)}`);
  if (mode === 'truncate') return cap(head.join('\n'), mode);

  const detail = DETAIL[mode];
  const done = stages(run);
  const failed = done.filter((id) => run.nodeOutcomes[id] === 'fail');
  const recent = done.slice(-detail.stages);
  const values = Object.entries(context.snapshot())
    .filter(([key]) => !isInternalKey(key))
    .slice(-detail.values);
  const lines = [...head];

  if (detail.prose) {
    const summary =
      done.length === 0
        ? 'No stage has completed before this one.'
        : `${done.length} stage(s) have completed${failed.length ? `, ${failed.length} of them failed (${failed.join(', ')})` : ''}; the latest: ${recent.slice(-3).join(', ')}.`;
    lines.push('', summary);
  }
  if (recent.length > 0) {
    lines.push('', done.length > recent.length ? `Completed stages (the last ${recent.length}):` : 'Completed stages:');
    for (const id of recent) lines.push(`- ${id}: ${run.nodeOutcomes[id] ?? 'done'}`);
  }
  if (values.length > 0) {
    lines.push('', 'Context:');
    for (const [key, value] of values) lines.push(`- ${key} = ${oneLine(value, detail.valueLimit)}`);
  }
  const withResponses = recent.slice(-detail.responses).flatMap((id) => {
    const text = detail.responses > 0 ? responseExcerpt(run, id, detail.responseLimit) : undefined;
    return text ? [`- ${id}: ${text}`] : [];
  });
  if (withResponses.length > 0) lines.push('', 'Earlier responses (their beginnings):', ...withResponses);
  return cap(lines.join('\n'), mode);
}
