import { CHECKPOINT_INTERVAL_MS, type Checkpoint, type JournalEntry } from './store/records.js';
import type { RunStore, StageStore } from './store/run-store.js';
import type { EngineState } from './engine-state.js';
import type { EventBus } from './event-bus.js';
import { TRANSIENT_EVENT_TYPES } from './events.js';
import { STATUS_FILE, toStatusFile, type Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';
import { usageToFile } from './usage.js';

/**
 * The least time between two checkpoints during a run, as a multiple of how
 * long the last one took: keeps rewriting a long run's checkpoint (its size
 * grows with the run) under about 5% of the run's time. The journal has
 * every node meanwhile.
 */
export const CHECKPOINT_COST_FACTOR = 20;

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
  /** How long the last checkpoint took to make and store: the next waits at least 20 times that. */
  private lastCheckpointCost = 0;
  /** Event lines not yet stored: flushed with each journal entry, checkpoint and close. */
  private pendingEvents: string[] = [];
  private deferred: NodeJS.Timeout | undefined;
  private closed = false;
  /** Store writes still going (asynchronous stores); undefined when none is. Writes run in order. */
  private writing: Promise<void> | undefined;
  /** The first store write that failed: every later call reports it. */
  private failure: { error: unknown } | undefined;

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

  /**
   * Runs a store write in order after those before it. A synchronous store
   * (files, memory) is written at once, without a promise; an asynchronous
   * one is chained. After a failure nothing more is written.
   */
  private chain(write: () => unknown): void {
    const next = this.writing ? this.writing.then(() => this.attempt(write)) : this.attempt(write);
    if (!next) return;
    this.writing = next;
    void next.then(() => {
      if (this.writing === next) this.writing = undefined;
    });
  }

  /** Runs one write; returns its promise when the store is asynchronous. A failure is kept, never thrown here. */
  private attempt(write: () => unknown): Promise<void> | undefined {
    if (this.failure) return undefined;
    try {
      const result = write();
      if (result instanceof Promise) {
        return result.then(
          () => undefined,
          (error: unknown) => {
            this.failure ??= { error };
          },
        );
      }
    } catch (error) {
      this.failure ??= { error };
    }
    return undefined;
  }

  /** Waits for the store writes made so far; throws the first that failed. */
  settle(): Promise<void> | void {
    if (this.writing) return this.writing.then(() => this.settle());
    if (this.failure) throw this.failure.error;
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
  appendJournal(entry: JournalEntry): Promise<void> | void {
    this.chain(() => this.store.appendJournal(entry));
    this.flushEvents();
    return this.settle();
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
  checkpoint(state: EngineState, context: RunContext, force = false): Promise<boolean> | boolean {
    const now = performance.now();
    // A checkpoint grows with the run: in a long run, writing it every interval would cost more than the nodes.
    // An interval of 0 asks for one after every node, whatever it costs.
    const spacing = this.intervalMs === 0 ? 0 : Math.max(this.intervalMs, CHECKPOINT_COST_FACTOR * this.lastCheckpointCost);
    const wait = spacing - (now - this.lastCheckpoint);
    if (!force && wait > 0) {
      this.deferred ??= setTimeout(() => {
        this.deferred = undefined;
        // A failure (a full disk) is left for the next checkpoint: the journal has the state.
        if (!this.closed) Promise.resolve().then(() => this.checkpoint(state, context, true)).catch(() => {});
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
    const settled = this.settle();
    if (settled) {
      return settled.then(() => {
        this.lastCheckpointCost = performance.now() - now;
        return true;
      });
    }
    this.lastCheckpointCost = performance.now() - now;
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
      await this.settle();
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
