import type { Graph, GraphNode } from '../graph/model.js';
import type { Outcome } from './outcome.js';
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
}

/**
 * A node handler: a plain object. It returns an outcome; returning nothing
 * means "read `status.json` from the stage directory" (the status-file
 * contract), and with `auto_status=true` a missing status counts as success.
 * A thrown error becomes a FAIL outcome (retried when it is transient).
 */
export interface Handler {
  execute(input: HandlerInput): Promise<Outcome | undefined> | Outcome | undefined;
}
