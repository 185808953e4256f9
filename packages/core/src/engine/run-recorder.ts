import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKPOINT_INTERVAL_MS, writeCheckpoint, type Checkpoint } from '../run/checkpoint.js';
import type { JournalEntry } from '../run/journal.js';
import { LineAppender, RUN_FILES, stageDirectory } from '../run/run-files.js';
import type { EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import { toStatusFile, type Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';

/**
 * Writes a run's durable state: `events.jsonl` (every event), `journal.jsonl`
 * (one flushed line per node: the crash-safe record), `<node>/status.json`,
 * and `checkpoint.json`, rewritten atomically at most every
 * {@link CHECKPOINT_INTERVAL_MS} during the run and at every stop.
 */
export class RunRecorder {
  private readonly journal: LineAppender;
  private readonly eventLog: LineAppender;
  private readonly unsubscribe: () => void;
  private lastCheckpoint = 0;

  constructor(
    readonly logsRoot: string,
    events: EventBus,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {
    this.journal = new LineAppender(join(logsRoot, RUN_FILES.journal), true);
    this.eventLog = new LineAppender(join(logsRoot, RUN_FILES.events), false);
    this.unsubscribe = events.on((event) => this.eventLog.append(JSON.stringify(event)));
  }

  /** Creates the node's stage directory; returns its path. */
  stageDir(nodeId: string): string {
    const dir = stageDirectory(this.logsRoot, nodeId);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Writes `<node>/status.json`. */
  writeStatus(stageDir: string, outcome: Outcome): void {
    writeFileSync(join(stageDir, RUN_FILES.status), `${JSON.stringify(toStatusFile(outcome), null, 2)}\n`);
  }

  /** Appends a node's journal entry and returns once it is on disk. */
  appendJournal(entry: JournalEntry): void {
    this.journal.append(JSON.stringify(entry));
  }

  /** Rewrites `checkpoint.json` if the interval has passed (or `force`); returns whether it did. */
  checkpoint(state: EngineState, context: RunContext, force = false): boolean {
    const now = performance.now();
    if (!force && now - this.lastCheckpoint < this.intervalMs) return false;
    writeCheckpoint(this.logsRoot, checkpointOf(state, context));
    this.lastCheckpoint = now;
    return true;
  }

  /** Stops recording events and closes the files. */
  close(): void {
    this.unsubscribe();
    this.journal.close();
    this.eventLog.close();
  }
}

/** The checkpoint file's content for a state and context. */
export function checkpointOf(state: EngineState, context: RunContext): Checkpoint {
  return {
    format: 'orchestra.checkpoint/1',
    timestamp: new Date().toISOString(),
    status: state.status,
    current_node: state.currentNode,
    next_node: state.nextNode,
    completed_nodes: [...state.completedNodes],
    node_retries: { ...state.nodeRetries },
    node_outcomes: { ...state.nodeOutcomes },
    total_retries: state.totalRetries,
    context: context.snapshot(),
    logs: [...context.logs],
    journal_seq: state.seq,
    failure_reason: state.failureReason,
    restarted_to: state.restartedTo,
  };
}
