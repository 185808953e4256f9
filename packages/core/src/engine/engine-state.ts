import type { JournalEntry, RunStatus } from './store/records.js';
import { isSuccess, type JsonValue, type StageStatus } from './outcome.js';
import { addUsage, usageFromFile, type TokenUsage } from './usage.js';

/** The engine's position in a run: everything a checkpoint holds besides the context. */
export interface EngineState {
  completedNodes: string[];
  /** Retries of the latest visit, for the nodes whose latest visit retried (absent: 0). */
  nodeRetries: Record<string, number>;
  /** Latest outcome of every node that recorded one (SKIPPED does not), for goal gates. */
  nodeOutcomes: Record<string, StageStatus>;
  totalRetries: number;
  /** The last completed node. */
  currentNode: string | null;
  /** The node to run next; null once the run has ended. */
  nextNode: string | null;
  /** Sequence number of the last journal entry applied. */
  seq: number;
  status: RunStatus;
  failureReason: string | null;
  restartedTo: string | null;
  /**
   * Progress saved by nodes that have not completed (a conversation's turns),
   * by node id: a resumed node gets its entry back. Dropped when the node
   * completes.
   */
  nodeProgress: Record<string, JsonValue>;
  /** Tokens the run's LLM stages used so far; undefined until one reports usage. */
  usage: TokenUsage | undefined;
}

/** The state of a run that has not started yet. */
export function initialState(startNode: string): EngineState {
  return {
    completedNodes: [],
    nodeRetries: {},
    nodeOutcomes: {},
    totalRetries: 0,
    currentNode: null,
    nextNode: startNode,
    seq: 0,
    status: 'running',
    failureReason: null,
    restartedTo: null,
    nodeProgress: {},
    usage: undefined,
  };
}

/**
 * Applies one journal entry to the state: the single transition used by a
 * live run (after appending the entry) and by resume (replaying it), so both
 * reach the same state. Context changes are applied by the caller.
 */
export function applyEntry(state: EngineState, entry: JournalEntry): void {
  state.seq = entry.seq;
  state.completedNodes.push(entry.node);
  state.currentNode = entry.node;
  // Only nodes whose latest visit retried are kept: a key per node would grow every checkpoint with the run.
  if (entry.retries > 0) state.nodeRetries[entry.node] = entry.retries;
  else if (entry.node in state.nodeRetries) delete state.nodeRetries[entry.node];
  state.totalRetries += entry.retries;
  if (entry.status !== 'skipped') state.nodeOutcomes[entry.node] = entry.status;
  state.nextNode = entry.next;
  delete state.nodeProgress[entry.node];
  if (entry.usage) state.usage = addUsage(state.usage, usageFromFile(entry.usage));
  if (entry.end) {
    state.status = entry.end;
    state.failureReason = entry.failure_reason ?? null;
    state.restartedTo = entry.restarted_to ?? null;
  }
}

/** The first goal gate whose latest outcome is not a success, if any (spec §3.4). */
export function unsatisfiedGoalGate(goalGates: readonly string[], state: EngineState): string | undefined {
  return goalGates.find((id) => {
    const status = state.nodeOutcomes[id];
    return status !== undefined && !isSuccess(status);
  });
}
