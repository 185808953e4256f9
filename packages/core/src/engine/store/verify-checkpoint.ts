import { applyEntry, initialState, type EngineState } from '../engine-state.js';
import type { Checkpoint, JournalEntry } from './records.js';
import { CheckpointError } from './store-errors.js';

/**
 * Where a run may legitimately stand when its checkpoint names another next
 * node than its journal: the goal-gate retry target the engine jumps to when
 * the run reaches an exit with an unsatisfied gate (a jump no journal entry
 * records). Returns that target for a state, or undefined.
 */
export type ExitGateJump = (state: EngineState) => string | undefined;

const ENDED = new Set(['completed', 'failed', 'restarted']);

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function sameRecord(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

function shown(value: unknown): string {
  return JSON.stringify(value) ?? 'nothing';
}

/**
 * Checks a checkpoint against the journal it summarises: replaying the
 * journal's entries up to `journal_seq` from the run's start must give the
 * checkpoint's completed nodes, outcomes, retries, position and status. A
 * checkpoint edited by hand or by a tool (a lowered `journal_seq` that would
 * replay steps twice, a `next_node` that skips a node, `status: "completed"`
 * over an unfinished journal) is refused with a {@link CheckpointError}
 * naming the field, so a resume never runs from a position the run never
 * reached. A journal with a gap in its sequence, or with entries after the
 * one that ended the run, is refused too.
 */
export function verifyCheckpoint(checkpoint: Checkpoint, entries: readonly JournalEntry[], startNode: string, exitGateJump?: ExitGateJump): void {
  const mismatch = (what: string, found: unknown, expected: unknown) =>
    new CheckpointError(
      `checkpoint.json does not match journal.jsonl: its ${what} is ${shown(found)} where the journal's first ${checkpoint.journal_seq} step(s) give ${shown(expected)}; it was changed after it was written, and the run was left untouched`,
    );
  const replay = initialState(startNode);
  let ended: JournalEntry | undefined;
  let previous = 0;
  for (const entry of entries) {
    if (entry.seq !== previous + 1) throw new CheckpointError(`the journal skips from step ${previous} to ${entry.seq}`);
    previous = entry.seq;
    if (ended) throw new CheckpointError(`journal step ${entry.seq} follows step ${ended.seq}, which ended the run (${ended.end}); the journal was changed, and the run was left untouched`);
    if (entry.end) ended = entry;
    if (entry.seq <= checkpoint.journal_seq) applyEntry(replay, entry);
  }
  if (replay.seq !== checkpoint.journal_seq) return; // a cut journal: restore says so
  if (!sameList(checkpoint.completed_nodes, replay.completedNodes)) {
    throw mismatch('list of completed nodes', `${checkpoint.completed_nodes.length} node(s)`, `${replay.completedNodes.length} node(s)`);
  }
  if (checkpoint.current_node !== replay.currentNode) throw mismatch('current_node', checkpoint.current_node, replay.currentNode);
  if (checkpoint.total_retries !== replay.totalRetries) throw mismatch('total_retries', checkpoint.total_retries, replay.totalRetries);
  if (!sameRecord(checkpoint.node_outcomes, replay.nodeOutcomes)) throw mismatch('node_outcomes', checkpoint.node_outcomes, replay.nodeOutcomes);
  // Earlier builds wrote a key per node, zeros included: a zero is the same as no key.
  const retries = Object.fromEntries(Object.entries(checkpoint.node_retries).filter(([, n]) => n !== 0));
  if (!sameRecord(retries, replay.nodeRetries)) throw mismatch('node_retries', checkpoint.node_retries, replay.nodeRetries);
  if (ENDED.has(replay.status)) {
    // The journal ended the run here: the checkpoint must say so, the same way.
    if (checkpoint.status !== replay.status) throw mismatch('status', checkpoint.status, replay.status);
    if (checkpoint.next_node !== replay.nextNode) throw mismatch('next_node', checkpoint.next_node, replay.nextNode);
    if (checkpoint.failure_reason !== replay.failureReason) throw mismatch('failure_reason', checkpoint.failure_reason, replay.failureReason);
    return;
  }
  if (checkpoint.status === 'completed' || checkpoint.status === 'restarted') throw mismatch('status', checkpoint.status, 'a run that has not ended');
  if (checkpoint.status === 'failed') {
    // The engine fails a run without a node (a step limit, an unsatisfied goal gate at the exit): no node to run, and a reason.
    if (checkpoint.next_node !== null || checkpoint.failure_reason === null) throw mismatch('status', checkpoint.status, 'a run that has not ended');
    return;
  }
  if (checkpoint.next_node !== replay.nextNode && (checkpoint.next_node === null || exitGateJump?.(replay) !== checkpoint.next_node)) {
    throw mismatch('next_node', checkpoint.next_node, replay.nextNode);
  }
}
