import type { Graph, GraphNode } from '../graph/model.js';
import type { ProcessLedger, RunView } from '../engine/handler.js';
import type { JsonValue, Outcome } from '../engine/outcome.js';
import type { RunContext } from '../engine/run-context.js';
import type { Fidelity } from './fidelity.js';
import type { LlmReporter } from './llm-reporter.js';
export { silentReporter, type LlmCall, type LlmReporter, type ToolCallReport } from './llm-reporter.js';
import type { StageStore } from '../engine/store/run-store.js';
import type { ConferenceBackend } from './conference/conference-types.js';

/** What a backend gets for one LLM stage. */
export interface CodergenRequest {
  node: GraphNode;
  /** The pipeline (graph-level settings such as `tool_hooks.pre`). */
  graph: Graph;
  prompt: string;
  context: RunContext;
  signal: AbortSignal;
  /** The node's stage: files the backend keeps (a transcript, a preamble). */
  stage: StageStore;
  /** A real directory holding the stage's files (`<run>/<node id>` with the file store), for what needs a path. */
  stageDir: string;
  /** Where commands run: the directory orchestra was started from. */
  workdir: string;
  /** The run the stage belongs to (for a context preamble). */
  run: RunView;
  /** How much of the run the stage carries (spec §5.4), resolved from the edge, node and graph. */
  fidelity: Fidelity;
  /** Where streaming pieces, finished calls and tool calls go. */
  report: LlmReporter;
  /**
   * Where the stage records the process groups it starts (agent commands,
   * CLI agents, tool hooks) before they run, so a resumed run stops what a
   * killed one left running. Absent outside a run.
   */
  processes?: ProcessLedger;
  /**
   * What the stage saved with `saveProgress` in an earlier attempt, or
   * before the process stopped (the node's progress in the checkpoint);
   * undefined for a fresh start or outside a run.
   */
  progress?: JsonValue;
  /**
   * Records how far the stage got, in the checkpoint at once (see
   * `HandlerInput.saveProgress`): a resumed run hands it back as
   * `progress`. For steps worth not repeating, such as a model call.
   */
  saveProgress?: (data: JsonValue | undefined) => Promise<void>;
}

/**
 * Runs one LLM stage (spec §4.5): returns the response text, or a full
 * outcome when the backend decides the routing itself. `@orchestra/llm`
 * provides LangChain-backed implementations; core ships the simulation.
 */
export interface CodergenBackend {
  run(request: CodergenRequest): Promise<string | Outcome>;
  /**
   * Why this backend cannot run `node` (a missing model, API key or
   * command), checked for every LLM stage before the run starts so the run
   * is refused up front with the message; `undefined` when it can.
   */
  cannotRun?(node: GraphNode, graph: Graph): string | undefined;
  /** The model side of conference nodes (`type="conference"`), when the backend runs them. */
  conference?: ConferenceBackend;
}
