import { ConversationProgressSchema, type JsonValue, type Question, type RunReport, type RunState } from '@orchestra/core';
import type { PendingQuestion } from './web-interviewer.js';

/** A question as the API returns it. */
export interface QuestionJson {
  id: string;
  node_id: string;
  text: string;
  type: Question['type'];
  options: { key: string; label: string }[];
  default: string | null;
  timeout_ms: number | null;
  asked_at: string;
  /** For a turn of an interactive node's conversation: its number and the commands that end it. */
  conversation: { turn: number; commands: string[] } | null;
  /** `live`: answered straight away; `parked`: answering records it and resumes the run. */
  source: 'live' | 'parked';
}

/** An interactive node's conversation so far. */
export interface ConversationJson {
  node_id: string;
  prompt: string;
  turns: { agent: string; human: string }[];
  /** The agent message not answered yet (null while the agent's reply is outstanding). */
  pending: string | null;
}

/** The conversations under way in a run, from the progress its interactive nodes saved. */
function conversationsOf(progress: Record<string, JsonValue>): ConversationJson[] {
  const out: ConversationJson[] = [];
  for (const [nodeId, value] of Object.entries(progress)) {
    const parsed = ConversationProgressSchema.safeParse(value);
    if (parsed.success) out.push({ node_id: nodeId, prompt: parsed.data.prompt, turns: parsed.data.turns, pending: parsed.data.pending });
  }
  return out;
}

/** A run as `GET /pipelines/{id}` returns it (snake_case, as `orchestra status --json`). */
export interface RunSummary {
  id: string;
  pipeline: string;
  goal: string;
  /** As `orchestra status` says: completed, failed, parked, running, stopped, restarted. */
  state: RunState;
  /** True when this server drives the run (its questions are answered here, it can be cancelled here). */
  live: boolean;
  checkpoint_status: string;
  started_at: string;
  source_file: string | null;
  run_dir: string;
  owner: { pid: number; host: string; alive: boolean; since: string } | null;
  completed_nodes: string[];
  node_outcomes: Record<string, string>;
  /** The node running now (or where a stopped run goes on); null once the run ended. */
  current_node: string | null;
  failure_reason: string | null;
  restarted_to: string | null;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number } | null;
  questions: QuestionJson[];
  /** The conversations of interactive nodes under way: the prompt, each turn (agent message, human reply), and the agent message awaiting a reply. */
  conversations: ConversationJson[];
  /** An error that stopped the server's run after it started (a store it could not write). */
  server_error: string | null;
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
    usage: state.usage ? { input_tokens: state.usage.inputTokens, output_tokens: state.usage.outputTokens, total_tokens: state.usage.totalTokens } : null,
    questions: extra.questions.map(questionJson),
    conversations: conversationsOf(state.nodeProgress),
    server_error: extra.serverError ?? null,
  };
}
