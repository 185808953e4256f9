import type { JsonValue } from '../outcome.js';
import { applyEntry, initialState, type EngineState } from '../engine-state.js';
import { usageFromFile } from '../usage.js';
import type { Checkpoint, JournalEntry } from './records.js';
import { CheckpointError } from './store-errors.js';
import { verifyCheckpoint, type ExitGateJump } from './verify-checkpoint.js';

/** A run's state rebuilt from its records: where the engine stands, and the context. */
export interface RestoredRun {
  state: EngineState;
  /** The context values. */
  context: Record<string, JsonValue>;
  /** The run log. */
  logs: string[];
}

/** The engine state a checkpoint records. */
export function stateOfCheckpoint(checkpoint: Checkpoint): EngineState {
  return {
    completedNodes: [...checkpoint.completed_nodes],
    nodeRetries: { ...checkpoint.node_retries },
    nodeOutcomes: { ...checkpoint.node_outcomes },
    totalRetries: checkpoint.total_retries,
    currentNode: checkpoint.current_node,
    nextNode: checkpoint.next_node,
    seq: checkpoint.journal_seq,
    status: checkpoint.status,
    failureReason: checkpoint.failure_reason,
    restartedTo: checkpoint.restarted_to,
    nodeProgress: { ...checkpoint.node_progress },
    usage: checkpoint.token_usage ? usageFromFile(checkpoint.token_usage) : undefined,
  };
}

/**
 * Rebuilds a run's state from its last checkpoint and its journal: the
 * checkpoint's state, then every entry written after it, in order — the same
 * transition ({@link applyEntry}) a live run makes, so a restored run equals
 * the uninterrupted one. Pure: shared by resume and `orchestra status`.
 *
 * Without a checkpoint (the process died right after creating the run) the
 * run restarts from `startNode` with `initialContext` (what the run started
 * with: its `--set` values and `graph.goal`). Throws {@link CheckpointError} when the
 * records disagree: a journal shorter than the checkpoint says (cut or
 * deleted), a gap in its sequence, an entry naming a node `knownNodes`
 * does not have, or a checkpoint the journal does not give
 * ({@link verifyCheckpoint}; `exitGateJump` says where a goal gate at an exit
 * may have sent the run).
 */
export function restore(
  checkpoint: Checkpoint | undefined,
  entries: readonly JournalEntry[],
  startNode: string,
  knownNodes?: ReadonlySet<string>,
  initialContext: Readonly<Record<string, JsonValue>> = {},
  exitGateJump?: ExitGateJump,
): RestoredRun {
  if (checkpoint) verifyCheckpoint(checkpoint, entries, startNode, exitGateJump);
  const state = checkpoint ? stateOfCheckpoint(checkpoint) : initialState(startNode);
  const context: Record<string, JsonValue> = checkpoint ? { ...checkpoint.context } : { ...initialContext };
  const logs = checkpoint ? [...checkpoint.logs] : [];
  const last = entries.length > 0 ? (entries[entries.length - 1] as JournalEntry).seq : 0;
  if (last < state.seq) {
    throw new CheckpointError(
      `the checkpoint records ${state.seq} completed step(s) but the journal has ${last === 0 ? 'none' : `only ${last}`}: the journal was cut or deleted`,
    );
  }
  for (const entry of entries) {
    if (entry.seq <= state.seq) continue;
    if (entry.seq !== state.seq + 1) throw new CheckpointError(`the journal skips from step ${state.seq} to ${entry.seq}`);
    if (knownNodes) {
      const unknown = [entry.node, entry.next].find((id) => id !== null && !knownNodes.has(id));
      if (unknown !== undefined) throw new CheckpointError(`journal step ${entry.seq} names node ${JSON.stringify(unknown)}, which the pipeline does not have`);
    }
    Object.assign(context, entry.context);
    if (entry.logs) logs.push(...entry.logs);
    applyEntry(state, entry);
  }
  if (knownNodes && state.nextNode !== null && !knownNodes.has(state.nextNode) && state.status !== 'restarted') {
    throw new CheckpointError(`the run's next node ${JSON.stringify(state.nextNode)} is not in the pipeline`);
  }
  return { state, context, logs };
}
