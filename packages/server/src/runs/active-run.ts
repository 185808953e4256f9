import { FileRunStore, RecordedAnswersInterviewer, type Interviewer, type RunEvent, type RunResult } from '@orchestra/core';
import { startError } from './run-errors.js';
import { questionJson } from './run-summary.js';
import type { RunEventLog } from './run-event-log.js';
import { WebInterviewer } from './web-interviewer.js';

/** What runs a server run: `runPipeline` or `resumePipeline` with the server's signal, event sink and interviewer. */
export type RunWork = (signal: AbortSignal, onEvent: (event: RunEvent) => void, interviewer: Interviewer) => Promise<RunResult>;

/** A run this server drives now. */
export interface ActiveRun {
  id: string;
  dir: string;
  /** Aborting it stops the run at its next safe point (cancel, shutdown). */
  controller: AbortController;
  /** The questions it waits for. */
  web: WebInterviewer;
  log: RunEventLog;
  /** Settles once the run's process stopped (never rejects). */
  done: Promise<void>;
  result?: RunResult;
}

/**
 * Starts `work` for run `id`: its events go to `log`, its questions wait in
 * a {@link WebInterviewer} (after answers recorded in the run directory, as
 * a resumed parked run finds them). `started` resolves on the run's first
 * event, or rejects (as an API error) with what stopped it before that.
 * `ended` is called once the run stops, with the error that stopped it
 * after it started, if one did.
 */
export function launchRun(
  spec: { id: string; dir: string; log: RunEventLog; askedBefore: number; work: RunWork },
  ended: (run: ActiveRun, error?: string) => void,
): { run: ActiveRun; started: Promise<void> } {
  const { id, dir, log } = spec;
  const controller = new AbortController();
  const web = new WebInterviewer(spec.askedBefore, () => log.notify('questions', { questions: web.pending().map((q) => questionJson({ ...q, source: 'live' })) }));
  let started = false;
  let markStarted: () => void = () => {};
  const startedSignal = new Promise<void>((resolve) => (markStarted = resolve));
  const onEvent = (event: RunEvent) => {
    log.push(event);
    if (!started && event.type === 'pipeline.started') {
      started = true;
      markStarted();
    }
  };
  const run: ActiveRun = { id, dir, controller, web, log, done: Promise.resolve() };
  let failure: { error: unknown } | undefined;
  run.done = spec.work(controller.signal, onEvent, new RecordedAnswersInterviewer(new FileRunStore(dir), web))
    .then(
      (result) => {
        run.result = result;
      },
      (error: unknown) => {
        failure = { error };
      },
    )
    .finally(() => {
      ended(run, started && failure ? (failure.error instanceof Error ? failure.error.message : String(failure.error)) : undefined);
      log.end();
    });
  const startedOrFailed = Promise.race([startedSignal, run.done]).then(() => {
    if (!started && failure) throw startError(failure.error);
  });
  return { run, started: startedOrFailed };
}
