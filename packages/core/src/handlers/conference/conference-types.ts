import type { Graph, GraphNode } from '../../graph/model.js';
import type { ProcessLedger, RunView } from '../../engine/handler.js';
import type { JsonValue } from '../../engine/outcome.js';
import type { RunContext } from '../../engine/run-context.js';
import type { StageStore } from '../../engine/store/run-store.js';
import type { TokenUsage } from '../../engine/usage.js';
import type { LlmReporter } from '../llm-reporter.js';
import type { ConferenceTemplateName, EvidenceRule, RoleTier } from '../../graph/conference-settings.js';
export { CONFERENCE_TEMPLATE_NAMES, EVIDENCE_RULES, ROLE_TIERS, type ConferenceTemplateName, type EvidenceRule, type RoleTier } from '../../graph/conference-settings.js';


/** How a role's part in a conference ended. */
export type RoleStatus = 'answered' | 'abstained' | 'ungrounded';

/** A role taking part in a conference, as the configuration defines it. */
export interface ConferenceRole {
  name: string;
  /** The role contract: the system prompt of each of its calls. */
  contract: string;
  evidence: EvidenceRule;
  tier: RoleTier;
  /** The model it answers with, as configured (an alias or id; for records). */
  model?: string;
}

/** One tool call of the chief, as its receipt records it (`receipts.jsonl`). */
export interface Receipt {
  receiptId: string;
  tool: string;
  arguments: JsonValue;
  /** `ok`, `error`, `refused`, `skipped`: how the call went. */
  status: string;
  /** The tool's result, whole. */
  payload: string;
  /** Hex sha256 of the payload's UTF-8 bytes. */
  sha256: string;
  /** When the call finished (ISO 8601). */
  at: string;
}

/** A tool call the chief made, for {@link ChiefRequest.receipt}. */
export interface ToolResult {
  tool: string;
  arguments: JsonValue;
  status: string;
  payload: string;
}

/** What the chief's phase gets: the question and the tools it may use. */
export interface ChiefRequest {
  node: GraphNode;
  graph: Graph;
  /** The question, rendered (the node's prompt). */
  question: string;
  context: RunContext;
  signal: AbortSignal;
  stage: StageStore;
  /** Where commands run: the directory orchestra was started from. */
  workdir: string;
  run: RunView;
  /** Where its model calls (`phase: 'chief'`) and tool calls are reported. */
  report: LlmReporter;
  processes?: ProcessLedger;
  /** The only tools it may call (`conference.tools`). */
  tools: readonly string[];
  /** Its first step must be a tool call: a reply without one is sent back once, then the phase fails. */
  requireTool: boolean;
  /** Most model calls. */
  maxTurns: number;
  /**
   * Records a finished tool call as a receipt (in `receipts.jsonl`, before
   * this resolves) and gives its id, which the tool result the model sees
   * must name.
   */
  receipt(result: ToolResult): Promise<string>;
}

/** How the chief's phase ended. */
export interface ChiefResult {
  /** Its final text. */
  reply: string;
  /** The model that answered. */
  model: string;
  /** Model calls made. */
  calls: number;
  usage?: TokenUsage;
}

/** A message of a role's exchange (its system prompt is the contract). */
export interface RoleMessage {
  role: 'user' | 'assistant';
  content: string;
}

/** One tool-less call of a role. */
export interface RoleCallRequest {
  node: GraphNode;
  graph: Graph;
  role: ConferenceRole;
  /** The system prompt: the role's contract. */
  system: string;
  messages: readonly RoleMessage[];
  signal: AbortSignal;
  /** Where the call is reported (`phase: 'role:<name>'`). */
  report: LlmReporter;
}

/** A role's reply to one call. */
export interface RoleCallResult {
  text: string;
  model: string;
  usage?: TokenUsage;
}


/**
 * The model side of conference nodes (`type="conference"`), which a
 * `CodergenBackend` offers as its `conference`: the chief's tool loop, one
 * tool-less call of a role, and where roles and templates come from. The
 * conference handler does the rest (receipts, concurrency, evidence checks,
 * tiers, records, quorum, resume). `@orchestra/llm` implements it over
 * LangChain and `orchestra.yaml`; the simulation backend has a
 * deterministic one.
 */
export interface ConferenceBackend {
  /** The roles a node names, resolved; throws an `OrchestraError` naming an unknown or unusable role. */
  roles(names: readonly string[], node: GraphNode, graph: Graph): readonly ConferenceRole[];
  /** The tool names the chief may be given (to check `conference.tools`). */
  toolNames(): readonly string[];
  /** Phase 1: the chief gathers evidence with tools, issuing a receipt per call. */
  runChief(request: ChiefRequest): Promise<ChiefResult>;
  /** Phase 2: one call of a role, with no tools. */
  askRole(request: RoleCallRequest): Promise<RoleCallResult>;
  /** The directory quoted files are found in (the chief's workspace). */
  workspace(node: GraphNode): string;
  /** Template texts that replace the built-in ones (from the configuration). */
  templates?(node: GraphNode, graph: Graph): Partial<Record<ConferenceTemplateName, string>>;
  /** Why a conference node cannot run (its model or a role's is not configured); `undefined` when it can. */
  cannotRun?(node: GraphNode, graph: Graph): string | undefined;
}
