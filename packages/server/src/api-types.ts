/**
 * The JSON shapes of the HTTP API (docs/http-api.md), with no imports: the
 * server builds them and the web page (type-checked for the browser) reads
 * them from here.
 */

/** A question as the API returns it. */
export interface QuestionJson {
  id: string;
  node_id: string;
  text: string;
  type: 'YES_NO' | 'MULTIPLE_CHOICE' | 'FREEFORM' | 'CONFIRMATION';
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

/** A run as `GET /pipelines/{id}` returns it (snake_case, as `orchestra status --json`). */
export interface RunSummary {
  id: string;
  pipeline: string;
  goal: string;
  /** As `orchestra status` says: completed, failed, parked, running, stopped, restarted. */
  state: 'completed' | 'failed' | 'parked' | 'running' | 'stopped' | 'restarted';
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
  /** The id of the run a `loop_restart` continues this one in, when it is in the same runs directory. */
  restarted_to_id: string | null;
  /** Tokens the run's LLM calls used; `cost` when `orchestra.yaml` prices every model it called. */
  usage: { input_tokens: number; output_tokens: number; total_tokens: number; cost: CostJson | null } | null;
  questions: QuestionJson[];
  /** The conversations of interactive nodes under way: the prompt, each turn (agent message, human reply), and the agent message awaiting a reply. */
  conversations: ConversationJson[];
  /** An error that stopped the server's run after it started (a store it could not write). */
  server_error: string | null;
}

/** An entry of `GET /pipelines`: a run, or a directory that could not be read. */
export type RunListEntry = RunSummary | { id: string; state: 'unreadable'; error: string };

/** A diagnostic as the API returns it (`POST /validate`, a 400 `ORCH_INVALID_PIPELINE`). */
export interface DiagnosticJson {
  file: string;
  line: number | null;
  column: number | null;
  severity: 'error' | 'warning' | 'info';
  rule: string;
  message: string;
  node_id: string | null;
  edge: { from: string; to: string } | null;
  fix: string | null;
}

/** What LLM calls cost, in one currency (an ISO 4217 code such as `USD`). */
export interface CostJson {
  amount: number;
  currency: string;
}

/** Tokens a model call (or several) used, and their cost when every call had a price. */
export interface UsageJson {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cost?: CostJson;
}

/** One tool call of a conference's chief: a line of `<node>/receipts.jsonl`. */
export interface ReceiptJson {
  /** `rcpt_` and 16 hex digits; what roles cite in their `Evidence:` line. */
  receipt_id: string;
  tool: string;
  arguments: Record<string, unknown>;
  status: string;
  /** The tool's full result text. */
  payload: string;
  /** SHA-256 (hex) of `payload` as UTF-8. */
  sha256: string;
  at: string;
}

/** How a role's part in a conference ended. */
export type ConferenceRoleStatus = 'answered' | 'abstained' | 'ungrounded';

/** A role's part in a conference (`roles[]` of `conference.json`). */
export interface ConferenceRoleJson {
  role: string;
  tier: string;
  evidence_rule?: string;
  model?: string;
  status: ConferenceRoleStatus;
  /** The role's final reply, as it wrote it. */
  reply: string;
  /** The reply's `Evidence:` line; absent when the role abstained. */
  evidence_line?: string;
  /** Why it abstained, or why its reply is ungrounded; absent when it answered. */
  reason?: string;
  /** Replies refused before the final one, each with why. */
  rejections?: { reply: string; reason: string }[];
  calls?: number;
  usage?: UsageJson;
  duration_ms?: number;
}

/** A conference stage's record: `<node>/conference.json` (format `orchestra.conference/1`). */
export interface ConferenceJson {
  format: 'orchestra.conference/1';
  node_id: string;
  question: string;
  chief?: { model?: string; reply?: string; calls?: number; receipts?: string[]; usage?: UsageJson };
  /** The receipts the chief gathered (as in `receipts.jsonl`). */
  evidence: ReceiptJson[];
  /** In the order of the node's `conference.roles`. */
  roles: ConferenceRoleJson[];
  quorum?: number;
  answered?: number;
  status?: 'success' | 'fail';
}

/** `GET /pipelines/{id}/stages/{node}/conference`: the stage's record and its receipts. */
export interface ConferenceStageJson {
  conference: ConferenceJson;
  /** The lines of `<node>/receipts.jsonl`, in order (none when the file is missing). */
  receipts: ReceiptJson[];
}

/** A task of a session plan, as `plan.json` keeps it (docs/recipes.md). */
export interface PlanTaskJson {
  id: string;
  description: string;
  type?: string;
  deps: string[];
  dod: string[];
  scoping_question?: string | null;
  state: 'pending' | 'blocked' | 'needs_scoping' | 'running' | 'done' | 'failed' | 'removed';
  /** The recipe the router chose; null while none takes it. */
  recipe_id: string | null;
  initial_args: Record<string, string>;
  /** The person's answer to its scoping question. */
  answer?: string | null;
  /** Its run (a run of the project's runs: `GET /pipelines/{run_id}`). */
  run_id: string | null;
  /** How many checks of its Definition of Done failed. */
  findings: number | null;
  failure_reason?: string | null;
  /** Started although a dependency had not finished. */
  forced: boolean;
  /** The task whose findings it follows up. */
  follow_up_of?: string | null;
}

/** A question a plan waits for: its own (a scoping question, a follow-up proposal) or a gate of its running task's run. */
export interface PlanQuestionJson extends QuestionJson {
  /** `plan.<n>` for the plan's own; `<task id>.<run question id>` for a task run's. */
  id: string;
  /** The task it is about. */
  task: string | null;
  /** The task run that asks it (null for the plan's own). */
  run_id: string | null;
}

/** `GET /plan`: the project's session plan (`plan.json`), and what the server knows of it. */
export interface PlanJson {
  format: 'orchestra.plan/1';
  intent: string;
  project: string;
  created_at: string;
  updated_at: string;
  state: 'proposed' | 'running' | 'paused' | 'done' | 'failed';
  /** In the plan's order (removed ones included). */
  tasks: PlanTaskJson[];
  /** Its tasks run in this server now. */
  active: boolean;
  /** Its task runs are simulated (no model is called). */
  simulate: boolean;
  /** What stopped the plan's runner by surprise (it was paused), if something did. */
  error: string | null;
  questions: PlanQuestionJson[];
}
