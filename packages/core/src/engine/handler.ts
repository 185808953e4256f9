import type { Graph, GraphNode } from '../graph/model.js';
import type { RunEventInput } from './events.js';
import type { JsonValue, Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';

/** What a handler receives for one attempt at a node (spec §4.1). */
export interface HandlerInput {
  node: GraphNode;
  graph: Graph;
  /** The run context: read it; return changes as `contextUpdates` (direct writes also persist). */
  context: RunContext;
  /** The run directory. */
  logsRoot: string;
  /** `<logsRoot>/<node id>`, created before the handler runs. */
  stageDir: string;
  /** Directory commands run in: where `orchestra` was started. */
  workdir: string;
  /** Aborted on Ctrl-C, on the node's `timeout`, or when the caller cancels. */
  signal: AbortSignal;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
  /** Runs a branch of the graph in its own context (what the parallel handler fans out with). */
  runBranch: BranchRunner;
  /** Emits a run event (on the run's bus, into `events.jsonl`). */
  emit: (event: RunEventInput) => void;
  /**
   * What this node saved with {@link HandlerInput.saveProgress} in an earlier
   * attempt or before the process stopped; `undefined` for a fresh start.
   */
  progress: JsonValue | undefined;
  /**
   * Records how far the node got (JSON data), in `checkpoint.json` before it
   * returns: if the run stops before the node completes, a resumed run hands
   * it back as `progress`. `undefined` clears it. Each call rewrites the
   * checkpoint (about a millisecond): meant for human-speed steps such as a
   * conversation's turns, not for every token.
   */
  saveProgress: (data: JsonValue | undefined) => void;
}

/** How a parallel branch ended. */
export interface BranchResult {
  /** The node the branch started at. */
  id: string;
  /** The last executed node's outcome status (`success` for an empty branch). */
  status: Outcome['status'];
  /** Nodes the branch ran, in order. */
  completedNodes: string[];
  /** The fan-in or exit node the branch stopped before; null when it ended otherwise. */
  stoppedAt: string | null;
  failureReason?: string;
  /** The context keys the branch wrote, with their final values. */
  contextUpdates: Record<string, JsonValue>;
}

/**
 * Runs the graph from `startNode` in `context` (a clone: nothing reaches the
 * run's context) until it reaches a fan-in or exit node (not executed), a
 * failure with no route, or a dead end.
 */
export type BranchRunner = (startNode: string, context: RunContext, signal: AbortSignal) => Promise<BranchResult>;

/**
 * A node handler: a plain object. It returns an outcome; returning nothing
 * means "read `status.json` from the stage directory" (the status-file
 * contract), and with `auto_status=true` a missing status counts as success.
 * A thrown error becomes a FAIL outcome (retried when it is transient).
 */
export interface Handler {
  execute(input: HandlerInput): Promise<Outcome | undefined> | Outcome | undefined;
  /**
   * Why this handler cannot run `node` (checked for every node before the
   * run starts, so the run is refused up front); `undefined` when it can.
   */
  cannotRun?(node: GraphNode, graph: Graph): string | undefined;
}
