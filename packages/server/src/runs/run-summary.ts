import { basename, dirname } from 'node:path';
import type { JsonValue, PendingQuestion, RunReport } from '@orchestra/core';
import { ConversationProgressSchema } from '@orchestra/core/store';
import type { ConversationJson, QuestionJson, RunSummary } from '../api-types.js';
export type { ConversationJson, QuestionJson, RunSummary } from '../api-types.js';

/** The conversations under way in a run, from the progress its interactive nodes saved. */
function conversationsOf(progress: Record<string, JsonValue>): ConversationJson[] {
  const out: ConversationJson[] = [];
  for (const [nodeId, value] of Object.entries(progress)) {
    const parsed = ConversationProgressSchema.safeParse(value);
    if (parsed.success) out.push({ node_id: nodeId, prompt: parsed.data.prompt, turns: parsed.data.turns, pending: parsed.data.pending });
  }
  return out;
}

/** A question in the API's shape. */
export function questionJson(q: PendingQuestion & { source: 'live' | 'parked' }): QuestionJson {
  const { question } = q;
  const meta = question.metadata as Record<string, JsonValue | undefined>;
  return {
    id: q.id,
    node_id: question.stage,
    text: question.text,
    type: question.type,
    options: question.options.map((o) => ({ key: o.key, label: o.label })),
    default: question.default ? (question.default.selectedOption?.key ?? question.default.value) : null,
    timeout_ms: question.timeoutMs ?? null,
    asked_at: q.askedAt,
    conversation: meta.kind === 'conversation' ? { turn: Number(meta.turn), commands: Array.isArray(meta.commands) ? meta.commands.map(String) : [] } : null,
    source: q.source,
  };
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'restarted']);

/** A run's summary from its report (as `orchestra status` reads it) and what the server knows of it. */
export function runSummary(
  id: string,
  report: RunReport,
  extra: { live: boolean; questions: (PendingQuestion & { source: 'live' | 'parked' })[]; serverError?: string },
): RunSummary {
  const { manifest, restored, owner } = report;
  const { state } = restored;
  const ended = ENDED.has(report.state) || state.status === 'completed' || state.status === 'failed';
  return {
    id,
    pipeline: manifest.pipeline,
    goal: manifest.goal,
    state: report.state,
    live: extra.live,
    checkpoint_status: state.status,
    started_at: manifest.started_at,
    source_file: manifest.source_file,
    run_dir: report.dir,
    owner: owner ? { pid: owner.pid, host: owner.host, alive: owner.alive, since: owner.acquired_at } : null,
    completed_nodes: [...state.completedNodes],
    node_outcomes: { ...state.nodeOutcomes },
    current_node: ended ? null : (state.nextNode ?? state.currentNode),
    failure_reason: state.failureReason ?? null,
    restarted_to: state.restartedTo ?? null,
    restarted_to_id: state.restartedTo && dirname(state.restartedTo) === dirname(report.dir) ? basename(state.restartedTo) : null,
    usage: state.usage
      ? { input_tokens: state.usage.inputTokens, output_tokens: state.usage.outputTokens, total_tokens: state.usage.totalTokens, cost: state.usage.cost ? { ...state.usage.cost } : null }
      : null,
    questions: extra.questions.map(questionJson),
    conversations: conversationsOf(state.nodeProgress),
    server_error: extra.serverError ?? null,
  };
}
