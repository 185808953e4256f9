import { CHECKPOINT_INTERVAL_MS, type Checkpoint, type JournalEntry } from './store/records.js';
import type { RunStore, StageStore } from './store/run-store.js';
import type { EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import { TRANSIENT_EVENT_TYPES } from './events.js';
import { STATUS_FILE, toStatusFile, type Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';
import { usageToFile } from './usage.js';

/**
 * Writes a run's durable state to its {@link RunStore}: every event, one
 * journal entry per completed node (the crash-safe record), each node's
 * `status.json`, and the checkpoint, replaced at most every
 * {@link CHECKPOINT_INTERVAL_MS} during the run and at every stop.
 *
 * A journal entry is stored before the run moves on, so a killed process
 * (SIGKILL, OOM) loses nothing. Events are batched: one store call per node.
 */
export class RunRecorder {
  private readonly unsubscribe: () => void;
  private lastCheckpoint = 0;
  /** Event lines not yet stored: flushed with each journal entry, checkpoint and close. */
  private pendingEvents: string[] = [];
  private deferred: NodeJS.Timeout | undefined;
  private closed = false;
  /** A failed deferred checkpoint write, reported by the next call (the journal has the state meanwhile). */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly store: RunStore,
    events: EventBus,
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {
    this.unsubscribe = events.on((event) => {
      if (TRANSIENT_EVENT_TYPES.has(event.type)) return; // streamed tokens: listeners only
      this.pendingEvents.push(JSON.stringify(event));
      if (event.type === 'human.interaction') {
        // Every question and answer, also in a record of their own, stored at once (answers are precious).
        this.chain(() => store.appendInterview(JSON.stringify(event)));
        this.flushEvents();
      }
      // A run's start, end and what happened to the run itself are stored at once, not with the next node.
      if (event.type.startsWith('pipeline.') || event.type.startsWith('run.')) this.flushEvents();
    });
  }

  /** Runs store writes made from event listeners in order, after what came before. */
  private chain(write: () => unknown): void {
    this.writing = this.writing.then(async () => {
      await write();
    });
  }

  /** Waits for writes started from listeners; throws the first that failed. */
  async settle(): Promise<void> {
    await this.writing;
  }

  /** Opens the node's stage (created if new). */
  stage(nodeId: string): Promise<StageStore> | StageStore {
    return this.store.stage(nodeId);
  }

  /** Writes `<node>/status.json`. */
  writeStatus(stage: StageStore, outcome: Outcome): unknown {
    return stage.write(STATUS_FILE, `${JSON.stringify(toStatusFile(outcome), null, 2)}\n`);
  }

  /** Stores a node's journal entry, with the events batched since the last one. */
  async appendJournal(entry: JournalEntry): Promise<void> {
    await this.writing;
    await this.store.appendJournal(entry);
    this.flushEvents();
    await this.writing;
  }

  /** Stores buffered event lines. */
  flushEvents(): void {
    if (this.pendingEvents.length === 0) return;
    const lines = this.pendingEvents;
    this.pendingEvents = [];
    this.chain(() => this.store.appendEvents(lines));
  }

  /**
   * Replaces the checkpoint if the interval has passed (or `force`); returns
   * whether it did. When it is too early, a rewrite is scheduled for the end
   * of the interval, so the checkpoint trails the journal by at most the
   * interval even while a long node runs.
   */
  async checkpoint(state: EngineState, context: RunContext, force = false): Promise<boolean> {
    const now = performance.now();
    const wait = this.intervalMs - (now - this.lastCheckpoint);
    if (!force && wait > 0) {
      this.deferred ??= setTimeout(() => {
        this.deferred = undefined;
        // A failure (a full disk) is left for the next checkpoint: the journal has the state.
        if (!this.closed) this.checkpoint(state, context, true).catch(() => {});
      }, wait);
      this.deferred.unref();
      return false;
    }
    if (this.deferred) clearTimeout(this.deferred);
    this.deferred = undefined;
    this.lastCheckpoint = now;
    this.flushEvents();
    const checkpoint = checkpointOf(state, context);
    this.chain(() => this.store.writeCheckpoint(checkpoint));
    await this.writing;
    return true;
  }

  /**
   * Stops recording events, stores what is buffered and closes the store.
   * Throws the first write that failed; closing after a failure (a full
   * disk) does not hide it.
   */
  async close(): Promise<void> {
    if (this.deferred) clearTimeout(this.deferred);
    this.closed = true;
    this.flushEvents();
    this.unsubscribe();
    let failure: unknown;
    try {
      await this.writing;
    } catch (error) {
      failure = error;
    }
    try {
      await this.store.close();
    } catch (error) {
      failure ??= error;
    }
    if (failure !== undefined) throw failure;
  }
}

/** The checkpoint for a state and context. */
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
