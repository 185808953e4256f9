import type { ChildEventListener, RunObserver } from '../engine/child-events.js';
import type { RunEvent } from '../engine/events.js';
import type { RunResult } from '../engine/run-result.js';
import type { RunStore } from '../engine/store/run-store.js';
import type { Graph } from '../graph/model.js';
import type { RunCatalogue } from '../run/run-catalogue.js';
import type { RecordedRunOptions } from '../run/recorded-run-options.js';
import type { RunReport } from '../run/run-report.js';
import type { QuestionPolicy } from './active-run.js';
import type { PendingQuestion } from './held-interviewer.js';
import type { RunSetupHook } from './run-setup.js';

/* The shapes a RunSupervisor (run-supervisor.ts) is asked for and answers with. */

/** Options of a {@link RunSupervisor}. */
export interface RunSupervisorOptions {
  /** Where its runs are kept. */
  catalogue: RunCatalogue;
  /** Checks and equips each run before it starts or resumes (default: simulated runs get the simulation, nothing else). */
  setup?: RunSetupHook;
  /** Node types the handlers its setup brings run (`RunSetup.handlers`), so pipelines using them load. */
  handlerTypes?: readonly string[];
  /** Where tool commands of new runs run (default: the process's working directory); a resumed run keeps its own. */
  workdir?: string;
  /** Passed to the engine (tests use 0). */
  checkpointIntervalMs?: number;
  /** What the runs' `questions` notice carries (a web API's JSON shape); default the pending questions as they are. */
  questionsNotice?: (pending: PendingQuestion[]) => unknown;
  /** How messages name this supervisor's process ("this server"); default "this process". */
  self?: string;
  /**
   * Where runs are driven when not here: with one, {@link RunSupervisor.enqueue}
   * records a run and hands it over, and an answer that completes a parked
   * run's questions hands its resume over instead of resuming it in this
   * process (workers sharing a database take them).
   */
  dispatch?: RunDispatch;
  /**
   * Called once for each run this supervisor starts or resumes here: the
   * observer it returns hears that run's events and its child runs' (a
   * tracer, say); undefined: none for that run.
   */
  observe?: (run: { id: string }) => RunObserver | undefined;
}

/** Hands runs over to be driven elsewhere (a queue that workers take from). */
export interface RunDispatch {
  /** Asks for run `id` to be started or continued by whoever takes it. */
  resume(id: string): Promise<void>;
  /** Asks whoever drives run `id` to stop it at its next safe point (it stays resumable). */
  cancel?(id: string, reason: string): Promise<void>;
}

/** A run to start. */
export interface StartRunRequest {
  /** The pipeline's DOT text. */
  source: string;
  /** A name for the pipeline in messages (`name:line:col`), default `pipeline.dot`. */
  file?: string;
  /** The pipeline's file, recorded in the manifest (and where files it names are found); absent for text given directly. */
  sourceFile?: string;
  /** The pipeline already loaded from `source` (a caller that printed its diagnostics); loaded here otherwise. */
  graph?: Graph;
  /** Initial context values. */
  context?: Record<string, unknown>;
  /** How the run behaves, recorded in its manifest so a resume continues it the same way. */
  options?: RecordedRunOptions;
  /** The run's id in the catalogue (`--logs-dir`); a new one otherwise. */
  id?: string;
}

/** How the caller takes part in a run it starts or resumes. */
export interface RunAttachment {
  /** Who answers its questions (default `hold`: they wait for {@link RunSupervisor.answer}). */
  questions?: QuestionPolicy;
  /** Told about every event. */
  onEvent?: (event: RunEvent) => void;
  /** Told about every event of the child runs its nodes start (see `RunOptions.onChildEvent`). */
  onChildEvent?: ChildEventListener;
  /** Stops the run at its next safe point when aborted (as {@link RunSupervisor.cancel} does). */
  signal?: AbortSignal;
  /** How phased stages without `agent.mode` hold their Discuss phase (default: as the run records it, else direct). */
  phasedMode?: 'direct' | 'interactive';
  /** Where a resumed run's tool commands run (default: where it started). */
  workdir?: string;
  /**
   * A resume of a run that has ended: `refuse` it (`ORCH_RUN_ENDED`, the
   * default), or `report` it as it ended (`alreadyFinished`; one that ended
   * on a `loop_restart` goes on in the run that continues it), as
   * `orchestra resume` does.
   */
  ended?: 'refuse' | 'report';
}

/** A run a supervisor drives. */
export interface SupervisedRun {
  /** Its id now (a `loop_restart` moves it on to the run that continues it). */
  readonly id: string;
  /** Its store now. */
  readonly store: RunStore;
  /** Resolves when its process stops: how it ended (rejects with what stopped it, a full disk say). */
  readonly done: Promise<RunResult>;
}

/** A question a run waits for: `live` (held by this supervisor: answering continues the run at once) or `parked` (recorded in the run). */
export interface RunQuestion extends PendingQuestion {
  source: 'live' | 'parked';
}

/** Where a run stands: its report, and what the supervisor knows of it. */
export interface RunStanding {
  id: string;
  report: RunReport;
  /** Driven by this supervisor now. */
  live: boolean;
  questions: RunQuestion[];
  /** What stopped it after it started here (a full disk), if something did. */
  error?: string;
}

/** What {@link RunSupervisor.answer} did. */
export interface AnswerResult {
  id: string;
  value: string;
  /** The chosen option's key and label, for a multiple-choice answer. */
  key?: string;
  label?: string;
  /** The run was parked and goes on now (every question it waits for answered). */
  resumed: boolean;
  /** Its resume was handed over ({@link RunSupervisorOptions.dispatch}): a worker continues it. */
  dispatched?: boolean;
  /** A recorded answer replaced an earlier one. */
  replaced?: boolean;
}
