import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECKPOINT_INTERVAL_MS, writeCheckpoint, type Checkpoint } from '../run/checkpoint.js';
import type { JournalEntry } from '../run/journal.js';
import { LineAppender, RUN_FILES, stageDirectory } from '../run/run-files.js';
import type { EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import { TRANSIENT_EVENT_TYPES } from './events.js';
import { toStatusFile, type Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';
import { usageToFile } from './usage.js';

/**
 * Writes a run's durable state: `events.jsonl` (every event), `journal.jsonl`
 * (one line per completed node: the crash-safe record), `<node>/status.json`,
 * and `checkpoint.json`, rewritten atomically at most every
 * {@link CHECKPOINT_INTERVAL_MS} during the run and at every stop.
 *
 * A journal line is written before the run moves on, so a killed process
 * (SIGKILL, OOM) loses nothing. The journal is flushed to disk with every
 * checkpoint; with `syncEveryNode` after every line too (about 150 µs a node
 * here), which also makes each node survive a power loss.
 */
export class RunRecorder {
  private readonly journal: LineAppender;
  private readonly eventLog: LineAppender;
  private readonly unsubscribe: () => void;
  private lastCheckpoint = 0;
  /** Event lines not yet written: flushed with each journal entry, checkpoint and close (one write per node). */
  private pendingEvents: string[] = [];
  private deferred: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly logsRoot: string,
    events: EventBus,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
    syncEveryNode = false,
  ) {
    this.journal = new LineAppender(join(logsRoot, RUN_FILES.journal), syncEveryNode);
    this.eventLog = new LineAppender(join(logsRoot, RUN_FILES.events));
    this.unsubscribe = events.on((event) => {
      if (TRANSIENT_EVENT_TYPES.has(event.type)) return; // streamed tokens: listeners only
      this.pendingEvents.push(JSON.stringify(event));
      if (event.type === 'human.interaction') {
        // Every question and answer, also in a file of their own, written at once (answers are precious).
        appendFileSync(join(logsRoot, RUN_FILES.interviews), `${JSON.stringify(event)}\n`);
        this.flushEvents();
      }
      if (event.type.startsWith('pipeline.')) this.flushEvents();
    });
  }

  /** Creates the node's stage directory; returns its path and whether it already existed. */
  stageDir(nodeId: string): { dir: string; reused: boolean } {
    const dir = stageDirectory(this.logsRoot, nodeId);
    try {
      mkdirSync(dir); // one system call; the run directory itself already exists
      return { dir, reused: false };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return { dir, reused: true };
    }
  }

  /** Writes `<node>/status.json`. */
  writeStatus(stageDir: string, outcome: Outcome): void {
    writeFileSync(join(stageDir, RUN_FILES.status), `${JSON.stringify(toStatusFile(outcome), null, 2)}\n`);
  }

  /** Appends a node's journal entry (in the kernel's cache on return; on disk with `syncEveryNode`). */
  appendJournal(entry: JournalEntry): void {
    this.journal.append(JSON.stringify(entry));
    this.flushEvents();
  }

  /** Writes buffered event lines to `events.jsonl`. */
  flushEvents(): void {
    if (this.pendingEvents.length === 0) return;
    this.eventLog.append(this.pendingEvents.join('\n'));
    this.pendingEvents = [];
  }

  /**
   * Rewrites `checkpoint.json` if the interval has passed (or `force`);
   * returns whether it did. When it is too early, a rewrite is scheduled for
   * the end of the interval, so the file trails the journal by at most the
   * interval even while a long node runs.
   */
  checkpoint(state: EngineState, context: RunContext, force = false): boolean {
    const now = performance.now();
    const wait = this.intervalMs - (now - this.lastCheckpoint);
    if (!force && wait > 0) {
      this.deferred ??= setTimeout(() => {
        this.deferred = undefined;
        try {
          if (!this.closed) this.checkpoint(state, context, true);
        } catch {
          // e.g. a full disk: the next node's checkpoint tries again; the journal has the state
        }
      }, wait);
      this.deferred.unref();
      return false;
    }
    if (this.deferred) clearTimeout(this.deferred);
    this.deferred = undefined;
    this.flushEvents();
    this.journal.sync();
    this.eventLog.sync();
    writeCheckpoint(this.logsRoot, checkpointOf(state, context));
    this.lastCheckpoint = now;
    return true;
  }

  /** Stops recording events and closes the files. */
  close(): void {
    if (this.deferred) clearTimeout(this.deferred);
    this.closed = true;
    this.flushEvents();
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
    // Only what completed nodes wrote: a rewrite may happen while a node runs.
    context: context.committedSnapshot(),
    logs: context.committedLogs(),
    journal_seq: state.seq,
    failure_reason: state.failureReason,
    restarted_to: state.restartedTo,
    node_progress: { ...state.nodeProgress },
    ...(state.usage ? { token_usage: usageToFile(state.usage) } : {}),
  };
}
