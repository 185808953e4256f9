import { basename } from 'node:path';
import { FileRunStore, RecordedAnswersInterviewer, type Interviewer, type RunEvent, type RunResult } from '@orchestra/core';
import { RunEventLog } from './run-event-log.js';
import { startError } from './run-errors.js';
import { questionJson } from './run-summary.js';
import { WebInterviewer } from './web-interviewer.js';

/** What runs a server run: `runPipeline` or `resumePipeline` with the server's signal, event sink and interviewer. */
export type RunWork = (signal: AbortSignal, onEvent: (event: RunEvent) => void, interviewer: Interviewer) => Promise<RunResult>;

/** A run this server drives now. */
export interface ActiveRun {
  /** Its id; after a `loop_restart`, the run it goes on in. */
  id: string;
  dir: string;
  /** Aborting it stops the run at its next safe point (cancel, shutdown). */
  controller: AbortController;
  /** The questions it waits for. */
  web: WebInterviewer;
  /** Its events (after a `loop_restart`, those of the run it goes on in). */
  log: RunEventLog;
  /** Settles once the run's process stopped (never rejects). */
  done: Promise<void>;
  result?: RunResult;
}

/** What {@link launchRun} tells its caller about the run it started. */
export interface RunHooks {
  /** A `loop_restart` moved the run to another directory (a run of its own): `run.id` is the new id. */
  restarted(run: ActiveRun, previousId: string): void;
  /** The run's process stopped; `error`: what stopped it after it started, if something did. */
  ended(run: ActiveRun, error?: string): void;
}

/**
 * Starts `work` for run `id`: its events go to `log`, its questions wait in
 * a {@link WebInterviewer} (after answers recorded in the run directory, as
 * a resumed parked run finds them). `started` resolves on the run's first
 * event, or rejects (as an API error) with what stopped it before that.
 * When a `loop_restart` continues the run in another directory, the first
 * run's log ends and the run goes on under the new id with a log of its
 * own, numbered as that run's `events.jsonl`.
 */
export function launchRun(spec: { id: string; dir: string; log: RunEventLog; askedBefore: number; work: RunWork }, hooks: RunHooks): { run: ActiveRun; started: Promise<void> } {
  const controller = new AbortController();
  const web = new WebInterviewer(spec.askedBefore, () => run.log.notify('questions', { questions: web.pending().map((q) => questionJson({ ...q, source: 'live' })) }));
  const run: ActiveRun = { id: spec.id, dir: spec.dir, controller, web, log: spec.log, done: Promise.resolve() };
  let started = false;
  let markStarted: () => void = () => {};
  const startedSignal = new Promise<void>((resolve) => (markStarted = resolve));
  const onEvent = (event: RunEvent) => {
    run.log.push(event);
    if (!started && event.type === 'pipeline.started') {
      started = true;
      markStarted();
    }
    if (event.type === 'pipeline.restarted') {
      const previous = { id: run.id, log: run.log };
      run.dir = event.logsRoot;
      run.id = basename(event.logsRoot);
      run.log = new RunEventLog();
      // The new run's questions are numbered from its own events, as a resume of it will number them.
      web.renumber(0);
      previous.log.end();
      hooks.restarted(run, previous.id);
    }
  };
  // Answers recorded in the run's directory first (it may have moved with a restart), then the page's.
  const interviewer: Interviewer = { ask: (question, options) => new RecordedAnswersInterviewer(new FileRunStore(run.dir), web).ask(question, options) };
  let failure: { error: unknown } | undefined;
  run.done = spec
    .work(controller.signal, onEvent, interviewer)
    .then(
      (result) => {
        run.result = result;
      },
      (error: unknown) => {
        failure = { error };
      },
    )
    .finally(() => {
      hooks.ended(run, started && failure ? (failure.error instanceof Error ? failure.error.message : String(failure.error)) : undefined);
      run.log.end();
    });
  const startedOrFailed = Promise.race([startedSignal, run.done]).then(() => {
    if (!started && failure) throw startError(failure.error);
  });
  return { run, started: startedOrFailed };
}
