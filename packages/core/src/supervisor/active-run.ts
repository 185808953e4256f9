import type { RunEvent } from '../engine/events.js';
import type { RunResult } from '../engine/run-result.js';
import type { RunStore } from '../engine/store/run-store.js';
import type { Interviewer } from '../human/interviewer.js';
import { RecordedAnswersInterviewer } from '../human/park.js';
import { HeldInterviewer, type PendingQuestion } from './held-interviewer.js';
import type { RunEventLog } from './run-event-log.js';
import { RunEventLog as EventLog } from './run-event-log.js';

/** What drives a run: `runPipeline` or `resumePipeline` with the supervisor's signal, event sink and interviewer. */
export type RunWork = (signal: AbortSignal, onEvent: (event: RunEvent) => void, interviewer: Interviewer) => Promise<RunResult>;

/**
 * Who answers a run's questions: `hold` keeps each one pending until
 * `RunSupervisor.answer` (or its timeout); `park` parks the run at its first
 * question; an {@link Interviewer} asks (a terminal's console, a test's
 * queue). Answers recorded in the run (`orchestra answer`) come first in
 * every case.
 */
export type QuestionPolicy = 'hold' | 'park' | Interviewer;

/** A run a supervisor drives now. */
export interface ActiveRun {
  /** Its id; after a `loop_restart`, the id of the run it goes on in. */
  id: string;
  /** Its store (after a `loop_restart`, the store of the run it goes on in). */
  store: RunStore;
  /** Aborting it stops the run at its next safe point (cancel, shutdown). */
  controller: AbortController;
  /** The questions it waits for, when they are held. */
  held: HeldInterviewer;
  /** Its events (after a `loop_restart`, those of the run it goes on in). */
  log: RunEventLog;
  /** Settles once the run's process stopped (never rejects). */
  done: Promise<void>;
  /** How it ended, once it did. */
  result?: RunResult;
  /** What stopped it after it started, if something did (a full disk). */
  error?: unknown;
}

/** What {@link launchRun} tells its caller. */
export interface RunHooks {
  /** A `loop_restart` moved the run on into another run: `run.id` and `run.store` are the new run's. */
  restarted(run: ActiveRun, previousId: string): void;
  /** The run's process stopped. */
  ended(run: ActiveRun): void;
}

/** What {@link launchRun} starts. */
export interface LaunchSpec {
  id: string;
  store: RunStore;
  log: RunEventLog;
  /** Questions the run asked before (its recorded `interview.started` events), so held question ids go on. */
  askedBefore: number;
  questions: QuestionPolicy;
  work: RunWork;
  /** Also told about every event (a terminal's renderer). */
  onEvent?: (event: RunEvent) => void;
  /** Stops the run too when aborted (a terminal's Ctrl-C). */
  signal?: AbortSignal;
  /** What the log's `questions` notice carries when the held questions change (default: the pending questions as they are). */
  questionsNotice?: (pending: PendingQuestion[]) => unknown;
}

/**
 * Starts `work` for run `spec.id`: its events go to `spec.log`, its questions
 * as `spec.questions` says (after answers recorded in the run, as a resumed
 * parked run finds them). `started` resolves on the run's first event, or
 * rejects with what stopped it before that (an invalid pipeline, a run held
 * by another process). When a `loop_restart` continues the run in another
 * run, the first run's log ends and the run goes on under the new id with a
 * log of its own, numbered as that run's events.
 */
export function launchRun(spec: LaunchSpec, hooks: RunHooks): { run: ActiveRun; started: Promise<void> } {
  const controller = new AbortController();
  if (spec.signal) {
    if (spec.signal.aborted) controller.abort(spec.signal.reason);
    else spec.signal.addEventListener('abort', () => controller.abort(spec.signal?.reason), { once: true });
  }
  const notice = spec.questionsNotice ?? ((pending: PendingQuestion[]) => ({ questions: pending }));
  const held = new HeldInterviewer(spec.askedBefore, () => run.log.notify('questions', notice(held.pending())));
  const run: ActiveRun = { id: spec.id, store: spec.store, controller, held, log: spec.log, done: Promise.resolve() };
  let started = false;
  let markStarted: () => void = () => {};
  const startedSignal = new Promise<void>((resolve) => (markStarted = resolve));
  const onEvent = (event: RunEvent) => {
    run.log.push(event);
    spec.onEvent?.(event);
    if (!started && event.type === 'pipeline.started') {
      started = true;
      markStarted();
    }
    if (event.type === 'pipeline.restarted') {
      const previous = { id: run.id, log: run.log };
      run.store = run.store.successor();
      run.id = run.store.runId;
      run.log = new EventLog();
      // The new run's questions are numbered from its own events, as a resume of it will number them.
      held.renumber(0);
      previous.log.end();
      hooks.restarted(run, previous.id);
    }
  };
  const inner: Interviewer | undefined = spec.questions === 'hold' ? held : spec.questions === 'park' ? undefined : spec.questions;
  // Answers recorded in the run (it may have moved on with a restart) first, then the policy's.
  const interviewer: Interviewer = {
    ask: (question, options) => new RecordedAnswersInterviewer(run.store, inner).ask(question, options),
    inform: (message, stage) => inner?.inform?.(message, stage),
  };
  run.done = spec
    .work(controller.signal, onEvent, interviewer)
    .then(
      (result) => {
        run.result = result;
      },
      (error: unknown) => {
        run.error = error;
      },
    )
    .finally(() => {
      hooks.ended(run);
      run.log.end();
    });
  const startedOrFailed = Promise.race([startedSignal, run.done]).then(() => {
    if (!started && run.error !== undefined) throw run.error;
  });
  return { run, started: startedOrFailed };
}
