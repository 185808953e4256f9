import type { RunEvent } from './events.js';

/**
 * Which child run an event forwarded by {@link RunObserver.onChildEvent}
 * comes from: a sub-pipeline's or a manager loop's run, at any depth.
 */
export interface ChildRunOrigin {
  /** Where the child run was started (its first store's location; a `loop_restart` inside it keeps this value). */
  logsRoot: string;
  /** Where the run whose node started it is kept, as that run's `pipeline.started` says. */
  parentLogsRoot: string;
  /** The node of that run that started it. */
  nodeId: string;
}

/** Hears the events of child runs, each with the child it comes from. */
export type ChildEventListener = (event: RunEvent, origin: ChildRunOrigin) => void;

/**
 * Who follows a run as a whole: its own events (`onEvent`) and those of the
 * child runs its nodes start (`onChildEvent`), which the run's own event
 * stream (and `events.jsonl`) does not carry. The tracing consumer of
 * `@orchestra/core/tracing` is one.
 */
export interface RunObserver {
  onEvent?: (event: RunEvent) => void;
  onChildEvent?: ChildEventListener;
}
