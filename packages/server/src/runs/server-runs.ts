import { basename, join } from 'node:path';
import {
  FileRunStore,
  RecordedRunOptionsSchema,
  type RecordedRunOptions,
  checkOutputFiles,
  OrchestraError,
  hasLlmStages,
  loadPipeline,
  readPendingQuestions,
  readRecordedAnswers,
  readRunReport,
  recordAnswer,
  resumePipeline,
  runPipeline,
  simulationBackend,
  type CodergenBackend,
  type Graph,
  type JsonValue,
  type RunReport,
} from '@orchestra/core';
import { ApiError } from './api-error.js';
import { invalidPipeline, startError } from './run-errors.js';
import { TOOL_BACKENDS, commandUses } from './tool-refusal.js';
import { listRunIds, newRunDirectory, runDirectory } from './run-directories.js';
import { RunEventLog } from './run-event-log.js';
import { followRecordedEvents } from './recorded-events.js';
import { runSummary, type RunSummary } from './run-summary.js';
import type { PendingQuestion } from './web-interviewer.js';
import { launchRun, type ActiveRun, type RunWork } from './active-run.js';

/** What a run asks of its model: a model (or alias), and when resuming a run the CLI started, the endpoint and backend it recorded. */
export interface BackendRequest {
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/**
 * What a run's LLM stages call, for a run that is not simulated: from the
 * server's configuration (orchestra.yaml, `--model`). Without
 * `allowTools` it must not give models tools (the `chat` backend).
 */
export type BackendFactory = (graph: Graph, request: BackendRequest) => Promise<CodergenBackend | undefined>;

/** Options of {@link ServerRuns}. */
export interface ServerRunsOptions {
  /** Where runs are kept (`<runsDir>/<timestamp>-<pipeline>`, run directories as the CLI makes them). */
  runsDir: string;
  /** Where tool commands run (default: the process's working directory). */
  workdir?: string;
  /** Accept pipelines that run commands or read files (tool nodes, sub-pipelines, tool hooks). */
  allowTools?: boolean;
  /** The LLM backend of runs that are not simulated; without one such runs are refused (400, `ORCH_NO_BACKEND`). */
  backendFor?: BackendFactory;
  /** Passed to the engine (tests use 0). */
  checkpointIntervalMs?: number;
}

/** A run to start: the DOT source and how to run it. */
export interface StartRunRequest {
  source: string;
  /** A file name for the pipeline (diagnostics say `name:line:col`; the run directory is named after the graph). */
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

/** A question a run waits for: asked by a run this server drives, or recorded by a parked run. */
export interface RunQuestion extends PendingQuestion {
  /** `live`: answering continues the run at once; `parked`: the answer is recorded and the run resumed. */
  source: 'live' | 'parked';
}


/**
 * The options a run recorded in its manifest (`run_options`, the CLI's
 * record: the server writes the same keys), read back when it is resumed;
 * none when the record is not one.
 */
function recordedOptions(value: unknown): RecordedRunOptions {
  const parsed = RecordedRunOptionsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * The runs of a server: starts, resumes and cancels runs in `runsDir` (each
 * an ordinary run directory: `orchestra status`, `answer` and `resume`
 * work on it), holds the questions its runs wait for, and keeps each live
 * run's events for the event streams. Runs it did not start (or started
 * before a restart) are read from their directories.
 */
export class ServerRuns {
  private readonly active = new Map<string, ActiveRun>();
  /** The last error of a run that failed after it started (a store that could not be written). */
  private readonly crashed = new Map<string, string>();

  constructor(readonly options: ServerRunsOptions) {}

  /** Where runs are kept. */
  get runsDir(): string {
    return this.options.runsDir;
  }

  /** Validates a pipeline and starts it; resolves once the run exists (its first event was emitted). */
  async start(request: StartRunRequest): Promise<RunSummary> {
    const file = basename(request.file ?? 'pipeline.dot') || 'pipeline.dot';
    const loaded = loadPipeline(request.source, { file });
    if (!loaded.ok || !loaded.graph) throw invalidPipeline(file, loaded.diagnostics);
    const graph = loaded.graph;
    if (this.options.allowTools) {
      // Files a phased stage names are read from the server's working directory: what a run would find wrong is found now.
      const files = await checkOutputFiles(graph, join(this.options.workdir ?? process.cwd(), file));
      if (files.some((d) => d.severity === 'error')) throw invalidPipeline(file, [...loaded.diagnostics, ...files]);
    } else this.refuseCommands(graph, file);
    const simulate = request.simulate === true;
    const backend = await this.backendOf(graph, { simulate, ...(request.model !== undefined ? { model: request.model } : {}) });
    const dir = newRunDirectory(this.runsDir, graph.name, (d) => [...this.active.values()].some((a) => a.dir === d));
    const runOptions: RecordedRunOptions = { ...(simulate ? { simulate } : {}), ...(request.model ? { model: request.model } : {}), phased_mode: request.interactive ? 'interactive' : 'direct' };
    const id = basename(dir);
    await this.launch(id, dir, new RunEventLog(), 0, (signal, onEvent, interviewer) =>
      runPipeline(graph, {
        ...(backend ? { backend } : {}),
        interviewer,
        logsRoot: dir,
        initialContext: request.context ?? {},
        source: request.source,
        sourceFile: file,
        signal,
        onEvent,
        runOptions: { ...runOptions },
        phasedMode: runOptions.phased_mode ?? 'direct',
        ...(this.options.workdir ? { workdir: this.options.workdir } : {}),
        ...(this.options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: this.options.checkpointIntervalMs } : {}),
      }),
    );
    return this.summary(id);
  }

  /**
   * Continues a stopped or parked run with the options it started with.
   * Refused (409) when it runs here already, another process drives it, or it ended.
   */
  async resume(id: string): Promise<RunSummary> {
    await this.launchResume(await this.prepareResume(id));
    return this.summary(id);
  }

  /**
   * Everything a resume needs, checked before anything is written: the run
   * can be continued (not live here or elsewhere, not ended), its pipeline
   * is acceptable to this server (tools), and its LLM stages have a backend.
   */
  private async prepareResume(id: string): Promise<{ id: string; dir: string; backend: CodergenBackend | undefined; phasedMode: 'direct' | 'interactive' }> {
    const dir = runDirectory(this.runsDir, id);
    if (this.active.has(id)) throw new ApiError(409, 'ORCH_RUN_ACTIVE', `run ${id} is running in this server already`);
    const report = await this.reportOf(dir);
    if (report.owner?.alive) {
      throw new ApiError(409, 'ORCH_RUN_LOCKED', `run ${id} is driven by process ${report.owner.pid} on ${report.owner.host}; stop it there first`, {
        owner: { pid: report.owner.pid, host: report.owner.host, since: report.owner.acquired_at },
      });
    }
    if (report.state === 'completed' || report.state === 'failed' || report.state === 'restarted') {
      throw new ApiError(409, 'ORCH_RUN_ENDED', `run ${id} has ended (${report.state}); there is nothing to resume`, { state: report.state });
    }
    const options = recordedOptions(report.manifest.run_options);
    const source = new FileRunStore(dir).readSource();
    const loaded = source !== undefined ? loadPipeline(source, { file: `${id}/pipeline.dot` }) : undefined;
    if (!loaded?.graph) throw new ApiError(409, 'ORCH_CHECKPOINT', `run ${id} keeps no readable copy of its pipeline; it cannot be resumed here`);
    // A run started elsewhere (the CLI) is held to this server's rules when it goes on here.
    this.refuseCommands(loaded.graph, `${id}/pipeline.dot`);
    const backend = await this.backendOf(loaded.graph, {
      simulate: options.simulate === true,
      ...(options.model ? { model: options.model } : {}),
      ...(options.base_url ? { baseUrl: options.base_url } : {}),
      ...(options.backend ? { backend: options.backend } : {}),
    });
    return { id, dir, backend, phasedMode: options.phased_mode ?? 'direct' };
  }

  private async launchResume({ id, dir, backend, phasedMode }: Awaited<ReturnType<ServerRuns['prepareResume']>>): Promise<void> {
    const recorded = new FileRunStore(dir).readEvents();
    // Question ids go on from the questions asked before (answered or not), so an answer meant for one asked before never lands on a new one.
    const asked = recorded.filter((line) => line.includes('"type":"interview.started"')).length;
    await this.launch(id, dir, new RunEventLog(recorded), asked, (signal, onEvent, interviewer) =>
      resumePipeline(dir, {
        ...(backend ? { backend } : {}),
        interviewer,
        signal,
        onEvent,
        phasedMode,
        ...(this.options.workdir ? { workdir: this.options.workdir } : {}),
        ...(this.options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: this.options.checkpointIntervalMs } : {}),
      }),
    );
  }

  /** 403 for a pipeline that runs commands or reads files, unless this server allows tools. */
  private refuseCommands(graph: Graph, file: string): void {
    if (this.options.allowTools) return;
    const uses = commandUses(graph);
    if (uses.length === 0) return;
    throw new ApiError(
      403,
      'ORCH_TOOLS_REFUSED',
      `${file} runs commands, gives models tools or reads files on the server (${uses.map((u) => u.what).join(', ')}); this server refuses such pipelines unless it is started with --allow-tools`,
      { uses: uses.map((u) => ({ node_id: u.nodeId, what: u.what, file, line: u.line, column: u.column })) },
    );
  }

  /** Stops a run this server drives at its next safe point (it stays resumable); resolves once it stopped. */
  async cancel(id: string): Promise<RunSummary> {
    const dir = runDirectory(this.runsDir, id);
    const run = this.active.get(id);
    if (!run) {
      const report = await this.reportOf(dir);
      if (report.owner?.alive) {
        throw new ApiError(409, 'ORCH_RUN_LOCKED', `run ${id} is driven by process ${report.owner.pid} on ${report.owner.host}, not by this server; stop it there`, {
          owner: { pid: report.owner.pid, host: report.owner.host, since: report.owner.acquired_at },
        });
      }
      throw new ApiError(409, 'ORCH_RUN_NOT_RUNNING', `run ${id} is not running (it is ${report.state})`, { state: report.state });
    }
    run.controller.abort(new Error('cancelled through the HTTP API'));
    await run.done;
    return this.summary(id);
  }

  /** Where a run stands; `report`: its report when the caller has just read it (the files are read once). */
  async summary(id: string, report?: RunReport): Promise<RunSummary> {
    const dir = runDirectory(this.runsDir, id);
    const active = this.active.get(id);
    report ??= await this.reportOf(dir);
    return runSummary(id, report, {
      live: active !== undefined,
      questions: await this.questionsOf(id, dir, report.state),
      ...(this.crashed.has(id) ? { serverError: this.crashed.get(id) as string } : {}),
    });
  }

  /** Every run in the runs directory, newest first; unreadable ones report their problem. */
  async list(): Promise<(RunSummary | { id: string; state: 'unreadable'; error: string })[]> {
    const out: (RunSummary | { id: string; state: 'unreadable'; error: string })[] = [];
    for (const id of listRunIds(this.runsDir)) {
      try {
        out.push(await this.summary(id));
      } catch (error) {
        out.push({ id, state: 'unreadable', error: error instanceof Error ? error.message : String(error) });
      }
    }
    const started = (r: (typeof out)[number]) => ('started_at' in r ? r.started_at : '');
    return out.sort((a, b) => started(b).localeCompare(started(a)) || b.id.localeCompare(a.id));
  }

  /** The questions a run waits for. */
  async questions(id: string): Promise<RunQuestion[]> {
    const dir = runDirectory(this.runsDir, id);
    return this.questionsOf(id, dir, this.active.has(id) ? 'running' : (await this.reportOf(dir)).state);
  }

  /**
   * Answers a question: a live run's goes straight to the waiting node; a
   * parked run's is recorded (as `orchestra answer` does) and the run is
   * resumed here. 409 when the question is not pending, 400 when the
   * answer fits none of its options.
   */
  async answer(id: string, questionId: string, text: string): Promise<{ id: string; value: string; label?: string; resumed: boolean }> {
    const dir = runDirectory(this.runsDir, id);
    const run = this.active.get(id);
    if (run) {
      const answered = run.web.answer(questionId, text);
      if ('reason' in answered) throw new ApiError(answered.reason === 'invalid' ? 400 : 409, answered.reason === 'invalid' ? 'ORCH_BAD_ANSWER' : 'ORCH_NOT_PENDING', answered.message);
      return { id: questionId, value: answered.value, ...(answered.selectedOption ? { label: answered.selectedOption.label } : {}), resumed: false };
    }
    const report = await this.reportOf(dir);
    if (report.state !== 'parked') {
      if (report.owner?.alive) {
        throw new ApiError(409, 'ORCH_RUN_LOCKED', `run ${id} is driven by process ${report.owner.pid} on ${report.owner.host}; answer it there`, {
          owner: { pid: report.owner.pid, host: report.owner.host, since: report.owner.acquired_at },
        });
      }
      throw new ApiError(409, 'ORCH_NOT_PENDING', `question ${JSON.stringify(questionId)} is not pending: run ${id} waits for no answer (it is ${report.state})`);
    }
    // What would stop the resume is found before the answer is recorded (nothing is written for a refused one).
    const resume = await this.prepareResume(id);
    const store = new FileRunStore(dir);
    const lease = store.acquire();
    let recorded: Awaited<ReturnType<typeof recordAnswer>>;
    try {
      recorded = await recordAnswer(store, text, { id: questionId });
    } finally {
      lease.release();
    }
    if (typeof recorded === 'string') {
      const notPending = !report.pending.some((p) => p.id === questionId) || recorded.includes('already has an answer');
      throw new ApiError(notPending ? 409 : 400, notPending ? 'ORCH_NOT_PENDING' : 'ORCH_BAD_ANSWER', recorded);
    }
    // Every question the run parked with answered: it goes on here.
    const answers = await readRecordedAnswers(store);
    const resumed = (await readPendingQuestions(store)).every((p) => answers[p.id] !== undefined);
    if (resumed) await this.launchResume(resume);
    return { id: questionId, value: recorded.answer.value, ...(recorded.answer.selectedOption ? { label: recorded.answer.selectedOption.label } : {}), resumed };
  }

  /** The events of a run: live for a run this server drives, followed through `events.jsonl` for one another process drives, else as recorded. */
  async events(id: string): Promise<RunEventLog> {
    const dir = runDirectory(this.runsDir, id);
    const active = this.active.get(id);
    if (active) return active.log;
    const report = await this.reportOf(dir);
    return followRecordedEvents(dir, report.owner?.alive === true);
  }

  /**
   * Stops every run this server drives and waits for them: a run waiting for
   * an answer parks with its questions pending (so `orchestra answer` and
   * `orchestra resume` work on it, as does a server started later); any
   * other stops at its next safe point. Each stays resumable. A run still
   * busy after `graceMs` (a parallel branch that goes on) is stopped.
   */
  async close(graceMs = 5000): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) {
      if (run.web.parkAll() === 0) run.controller.abort(new Error('the server is shutting down'));
    }
    const timer = setTimeout(() => {
      for (const run of runs) run.controller.abort(new Error('the server is shutting down'));
    }, graceMs);
    try {
      await Promise.all(runs.map((r) => r.done));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether this server drives run `id` now. */
  isActive(id: string): boolean {
    return this.active.has(id);
  }

  /** The run's directory, checked. */
  directory(id: string): string {
    return runDirectory(this.runsDir, id);
  }

  /** Everything `orchestra status` reads of run `id` (checkpoint and journal folded, owner, pending questions). */
  async report(id: string): Promise<RunReport> {
    return this.reportOf(runDirectory(this.runsDir, id));
  }

  private async reportOf(dir: string): Promise<RunReport> {
    try {
      return await readRunReport(dir);
    } catch (error) {
      if (error instanceof OrchestraError) throw new ApiError(422, error.code, error.message);
      throw error;
    }
  }

  private async questionsOf(id: string, dir: string, state: string): Promise<RunQuestion[]> {
    const active = this.active.get(id);
    if (active) return active.web.pending().map((q) => ({ ...q, source: 'live' as const }));
    if (state !== 'parked') return [];
    const pending = await readPendingQuestions(new FileRunStore(dir));
    return pending.map((p) => ({ id: p.id, question: p.question, askedAt: p.asked_at, source: 'parked' as const }));
  }

  private async backendOf(graph: Graph, { simulate, ...request }: BackendRequest & { simulate: boolean }): Promise<CodergenBackend | undefined> {
    if (simulate) {
      if (request.model !== undefined) throw new ApiError(400, 'ORCH_BAD_REQUEST', 'give model or simulate, not both (a simulated run calls no model)');
      return simulationBackend;
    }
    if (!hasLlmStages(graph)) return undefined;
    if (!this.options.backendFor) {
      throw new ApiError(400, 'ORCH_NO_BACKEND', `${graph.name} has LLM stages and this server has no model configured (orchestra.yaml next to where it was started, or --model); submit with "simulate": true to try it with simulated responses`);
    }
    if (request.backend !== undefined && TOOL_BACKENDS.has(request.backend) && !this.options.allowTools) {
      throw new ApiError(403, 'ORCH_TOOLS_REFUSED', `the run was started with the ${request.backend} backend, which gives models tools on this machine (files, commands); this server refuses it unless started with --allow-tools`);
    }
    try {
      return await this.options.backendFor(graph, request);
    } catch (error) {
      throw startError(error);
    }
  }

  /** Starts `work` as run `id` (tracked as active until it ends) and resolves once it has emitted its first event; rejects with what stopped it before. */
  private async launch(id: string, dir: string, log: RunEventLog, askedBefore: number, work: RunWork): Promise<void> {
    this.crashed.delete(id);
    const launched = launchRun(
      { id, dir, log, askedBefore, work },
      {
        restarted: (run, previousId) => {
          this.active.delete(previousId);
          this.active.set(run.id, run);
        },
        ended: (run, error) => {
          this.active.delete(run.id);
          if (error !== undefined) this.crashed.set(run.id, error);
        },
      },
    );
    this.active.set(id, launched.run);
    await launched.started;
  }
}
