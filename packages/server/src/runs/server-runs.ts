import { basename } from 'node:path';
import {
  FileRunCatalogue,
  RunRefusal,
  RunSupervisor,
  RunUnreadableError,
  OrchestraError,
  guardedSetup,
  type BackendFactory,
  type JsonValue,
  type RecordedRunOptions,
  type RunCatalogue,
  type RunDispatch,
  type RunEventLog,
  type RunQuestion,
  type RunReport,
  type RunSetupHook,
  type RunStanding,
  type RunSupervisorOptions,
} from '@orchestra/core';
import type { Checkpoint } from '@orchestra/core/store';
import { isRunId } from './run-directories.js';
import { questionJson, runSummary, type RunSummary } from './run-summary.js';

export type { BackendFactory, BackendRequest, RunQuestion } from '@orchestra/core';

/** Options of {@link ServerRuns}. */
export interface ServerRunsOptions {
  /** Where runs are kept: a directory of run directories (`<runsDir>/<timestamp>-<pipeline>`, as the CLI makes them)... */
  runsDir?: string;
  /** ...or any catalogue (one of the two is needed). */
  catalogue?: RunCatalogue;
  /**
   * Where runs are driven instead of in this server (a PostgreSQL store's
   * queue, taken by `orchestra worker`): new runs are recorded and queued,
   * resumes and answers that complete a parked run's questions are queued.
   */
  dispatch?: RunDispatch;
  /** Where tool commands run (default: the process's working directory). */
  workdir?: string;
  /** Accept pipelines that run commands or read files (tool nodes, sub-pipelines, tool hooks). */
  allowTools?: boolean;
  /** The LLM backend of runs that are not simulated; without one such runs are refused (`ORCH_NO_BACKEND`). */
  backendFor?: BackendFactory;
  /** Passed to the engine (tests use 0). */
  checkpointIntervalMs?: number;
  /** Node types of the handlers `equip` brings (a project's recipe nodes), so pipelines using them load. */
  handlerTypes?: readonly string[];
  /** Wraps the server's run setup (which checks every run) to equip runs with more: handlers of their own node types. */
  equip?: (setup: RunSetupHook) => RunSetupHook;
  /** Follows each run the server drives (`RunSupervisorOptions.observe`): `orchestra serve --otel` traces them. */
  observe?: RunSupervisorOptions['observe'];
}

/** A run to start through the API: the DOT source and how to run it. */
export interface StartRunRequest {
  source: string;
  /** A file name for the pipeline (diagnostics say `name:line:col`; the run is named after the graph). */
  file?: string;
  /** Initial context values. */
  context?: Record<string, JsonValue>;
  /** Simulated LLM stages: no model is called. */
  simulate?: boolean;
  /** A model (or orchestra.yaml alias) for every LLM stage. */
  model?: string;
  /** Phased LLM stages without `agent.mode` discuss with the person at the page (default: on their own). */
  interactive?: boolean;
}

function catalogueOf(options: ServerRunsOptions): RunCatalogue {
  if (options.catalogue) return options.catalogue;
  if (options.runsDir === undefined) throw new Error('ServerRuns needs a runsDir or a catalogue');
  return new FileRunCatalogue(options.runsDir);
}

/**
 * The server's runs in the shapes of its HTTP API: a thin layer over a
 * {@link RunSupervisor} (which starts, follows, parks, answers and resumes
 * them) that turns what it says into {@link RunSummary} JSON. Refusals are
 * the supervisor's `OrchestraError`s; the HTTP layer gives them statuses.
 */
export class ServerRuns {
  readonly supervisor: RunSupervisor;

  constructor(readonly options: ServerRunsOptions) {
    const guarded = guardedSetup({
      ...(options.allowTools ? { allowTools: true } : {}),
      ...(options.backendFor ? { backendFor: options.backendFor } : {}),
      ...(options.workdir ? { workdir: options.workdir } : {}),
    });
    this.supervisor = new RunSupervisor({
      catalogue: catalogueOf(options),
      setup: options.equip ? options.equip(guarded) : guarded,
      ...(options.handlerTypes ? { handlerTypes: options.handlerTypes } : {}),
      ...(options.workdir ? { workdir: options.workdir } : {}),
      ...(options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
      ...(options.dispatch ? { dispatch: options.dispatch } : {}),
      ...(options.observe ? { observe: options.observe } : {}),
      questionsNotice: (pending) => ({ questions: pending.map((q) => questionJson({ ...q, source: 'live' })) }),
      self: 'this server',
    });
  }

  /** Where runs are kept. */
  get location(): string {
    return this.supervisor.catalogue.location;
  }

  /** Validates a pipeline and starts it; resolves once the run exists (its first event was emitted). */
  async start(request: StartRunRequest): Promise<RunSummary> {
    const file = basename(request.file ?? 'pipeline.dot') || 'pipeline.dot';
    const options: RecordedRunOptions = {
      ...(request.simulate ? { simulate: true } : {}),
      ...(request.model ? { model: request.model } : {}),
      phased_mode: request.interactive ? 'interactive' : 'direct',
    };
    const start = { source: request.source, file, sourceFile: file, ...(request.context ? { context: request.context } : {}), options };
    // With workers, the run is recorded and queued; one of them drives it.
    if (this.options.dispatch) return this.summary((await this.supervisor.enqueue(start)).id);
    const run = await this.supervisor.start(start);
    return this.summary(run.id);
  }

  /** Continues a stopped or parked run with the options it started with. */
  async resume(id: string): Promise<RunSummary> {
    if (this.options.dispatch) {
      const report = await this.supervisor.report(checked(id));
      if (report.state === 'completed' || report.state === 'failed' || report.state === 'restarted') {
        throw new RunRefusal('ORCH_RUN_ENDED', `run ${id} has ended (${report.state}); there is nothing to resume`, { state: report.state });
      }
      if (report.owner?.alive) throw new RunRefusal('ORCH_RUN_ACTIVE', `run ${id} is running (process ${report.owner.pid} on ${report.owner.host})`);
      await this.options.dispatch.resume(id);
      return this.summary(id);
    }
    const run = await this.supervisor.resume(checked(id));
    return this.summary(run.id);
  }

  /** Stops a run this server drives at its next safe point (it stays resumable); resolves once it stopped. */
  async cancel(id: string): Promise<RunSummary> {
    await this.supervisor.cancel(checked(id), 'cancelled through the HTTP API');
    return this.summary(id);
  }

  /** Where a run stands; `report`: its report when the caller has just read it (the files are read once). */
  async summary(id: string, report?: RunReport): Promise<RunSummary> {
    return summaryOf(await this.supervisor.view(checked(id), report));
  }

  /** Every run, newest first; unreadable ones report their problem. */
  async list(): Promise<(RunSummary | { id: string; state: 'unreadable'; error: string })[]> {
    return (await this.supervisor.list()).map((entry) => ('problem' in entry ? { id: entry.id, state: 'unreadable' as const, error: entry.problem } : summaryOf(entry)));
  }

  /** The questions a run waits for. */
  questions(id: string): Promise<RunQuestion[]> {
    return this.supervisor.questions(checked(id));
  }

  /** Answers a question: a live run's at once; a parked run's is recorded and the run resumed here once every question has an answer. */
  async answer(id: string, questionId: string, text: string): Promise<{ id: string; value: string; label?: string; resumed: boolean }> {
    const { replaced: _replaced, key: _key, ...answered } = await this.supervisor.answer(checked(id), questionId, text);
    return answered;
  }

  /** The events of a run. */
  events(id: string): Promise<RunEventLog> {
    return this.supervisor.events(checked(id));
  }

  /** The run's checkpoint as stored (none before its first); a damaged one is a `RunUnreadableError`. */
  async checkpoint(id: string): Promise<Checkpoint | undefined> {
    const store = await this.supervisor.store(checked(id));
    try {
      return await store.readCheckpoint();
    } catch (error) {
      if (error instanceof OrchestraError) throw new RunUnreadableError(id, error);
      throw error;
    }
  }

  /** The run's stored copy of its pipeline, if it keeps one. */
  async source(id: string): Promise<string | undefined> {
    return (await this.supervisor.store(checked(id))).readSource();
  }

  /** Everything `orchestra status` reads of run `id`. */
  report(id: string): Promise<RunReport> {
    return this.supervisor.report(checked(id));
  }

  /** Whether this server drives run `id` now. */
  isActive(id: string): boolean {
    return this.supervisor.isActive(id);
  }

  /** Stops every run this server drives (runs waiting for an answer park; the others stop at a safe point). */
  close(graceMs = 5000): Promise<void> {
    return this.supervisor.stopAll(graceMs, 'the server is shutting down');
  }
}

/** A run id from a URL, checked: one that cannot name a run is "not found". */
function checked(id: string): string {
  if (!isRunId(id)) throw new RunRefusal('ORCH_RUN_NOT_FOUND', `no run ${JSON.stringify(id)}`);
  return id;
}

function summaryOf(view: RunStanding): RunSummary {
  return runSummary(view.id, view.report, { live: view.live, questions: view.questions, ...(view.error !== undefined ? { serverError: view.error } : {}) });
}
