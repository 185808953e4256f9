import { hasErrors } from '../diagnostics/diagnostic.js';
import { OrchestraError } from '../errors.js';
import { RunLockedError } from '../engine/store/store-errors.js';
import type { RunResult } from '../engine/run-result.js';
import { readPendingQuestions, readRecordedAnswers } from '../engine/store/pending-questions.js';
import type { RunStore } from '../engine/store/run-store.js';
import { recordAnswer } from '../human/park.js';
import { loadPipeline } from '../pipeline/pipeline-loader.js';
import type { RunCatalogue, RunListing } from '../run/run-catalogue.js';
import { RecordedRunOptionsSchema, type RecordedRunOptions } from '../run/recorded-run-options.js';
import { readRunReport, type RunReport } from '../run/run-report.js';
import { resumePipeline } from '../runner/resume-pipeline.js';
import { runPipeline } from '../runner/run-pipeline.js';
import { createRun } from '../runner/create-run.js';
import { AutoApproveInterviewer } from '../human/simple-interviewers.js';
import { launchRun, type ActiveRun, type RunWork } from './active-run.js';
import type { AnswerResult, RunAttachment, RunQuestion, RunStanding, RunSupervisorOptions, StartRunRequest, SupervisedRun } from './supervisor-types.js';
import { followRecordedEvents } from './recorded-events.js';
import { RunEventLog } from './run-event-log.js';
import { RunRefusal, RunUnreadableError } from './run-refusal.js';
import { invalidPipeline, plainSetup, type RunSetup, type RunSetupHook } from './run-setup.js';
import { createDefaultRegistry } from '../handlers/default-registry.js';
import type { PhasedMode } from '../handlers/codergen-dispatcher.js';
import type { HandlerRegistry } from '../engine/handler-registry.js';
import type { Interviewer } from '../human/interviewer.js';

function recordedOptions(value: unknown): RecordedRunOptions {
  const parsed = RecordedRunOptionsSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : {};
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'restarted']);

/** How long {@link RunSupervisor.cancel} waits for a worker asked to stop a run to let it go. */
const CANCEL_WAIT_MS = 30_000;

/**
 * Starts, follows, parks, answers and resumes the runs of one catalogue:
 * the run lifecycle every front end (the CLI, the server, chat, MCP) goes
 * through. Runs are ordinary runs of the catalogue (`orchestra status`,
 * `answer` and `resume` work on them). A run's questions are held until
 * answered, parked, or asked by an interviewer the caller gives. Refusals
 * are {@link RunRefusal}s (and the engine's `OrchestraError`s) with stable
 * codes; a run whose records cannot be read is a {@link RunUnreadableError}.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { FileRunCatalogue, RunSupervisor } from '@orchestra/core';
 *
 * // Runs kept in a directory; simulated runs get the simulation backend (the default setup).
 * const supervisor = new RunSupervisor({ catalogue: new FileRunCatalogue(mkdtempSync(join(tmpdir(), 'runs-'))) });
 * const source = `digraph Review {
 *   start  [shape=Mdiamond]
 *   exit   [shape=Msquare]
 *   draft  [prompt="Draft the notes"]
 *   review [shape=hexagon, label="Review the notes"]
 *   start -> draft -> review
 *   review -> exit  [label="[A] Approve"]
 *   review -> draft [label="[R] Revise"]
 * }`;
 *
 * // Park at the first question (the default, 'hold', keeps it waiting for answer() in this process).
 * const run = await supervisor.start({ source, options: { simulate: true } }, { questions: 'park' });
 * console.log((await run.done).status);
 * const [question] = await supervisor.questions(run.id);
 * console.log(question?.source, question?.question.text);
 *
 * // Answer it (any process may, later), then resume the run here.
 * await supervisor.answer(run.id, question?.id, 'A', { resume: false });
 * const resumed = await supervisor.resume(run.id);
 * const result = await resumed.done;
 * console.log(result.status, result.completedNodes.join(' > '));
 * console.log((await supervisor.view(run.id)).report.state);
 * // Prints:
 * // parked
 * // parked Review the notes
 * // success start > draft > review > exit
 * // completed
 * ```
 */
export class RunSupervisor {
  private readonly active = new Map<string, ActiveRun>();
  private readonly crashed = new Map<string, string>();
  private readonly setup: RunSetupHook;

  constructor(readonly options: RunSupervisorOptions) {
    this.setup = options.setup ?? plainSetup;
  }

  private get self(): string {
    return this.options.self ?? 'this process';
  }

  /** Where its runs are kept. */
  get catalogue(): RunCatalogue {
    return this.options.catalogue;
  }

  /** Loads (unless given), checks and starts a pipeline; resolves once the run has started (its first event). */
  async start(request: StartRunRequest, attach: RunAttachment = {}): Promise<SupervisedRun> {
    const file = request.file ?? 'pipeline.dot';
    let graph = request.graph;
    let diagnostics = [] as ReturnType<typeof loadPipeline>['diagnostics'];
    if (!graph) {
      const loaded = loadPipeline(request.source, { file, knownHandlerTypes: this.options.handlerTypes ?? [] });
      if (!loaded.ok || !loaded.graph) throw invalidPipeline(file, loaded.diagnostics);
      graph = loaded.graph;
      diagnostics = loaded.diagnostics;
    }
    const options = request.options ?? {};
    const setup = await this.setup({ graph, file, diagnostics, options, how: 'start' });
    const store = await this.options.catalogue.create(graph.name, request.id !== undefined ? { id: request.id } : {});
    if (this.active.has(store.runId)) throw new RunRefusal('ORCH_RUN_ACTIVE', `run ${store.runId} is running in ${this.self} already`);
    const phasedMode = attach.phasedMode ?? options.phased_mode ?? 'direct';
    const g = graph;
    const attached = this.observed(store.runId, attach);
    return this.launch(store, new RunEventLog(), 0, attached, (signal, onEvent, interviewer) =>
      runPipeline(g, {
        ...(attached.onChildEvent ? { onChildEvent: attached.onChildEvent } : {}),
        ...(setup.backend ? { backend: setup.backend } : {}),
        ...withHandlers(setup, interviewer, phasedMode),
        interviewer,
        store,
        initialContext: request.context ?? {},
        source: request.source,
        sourceFile: request.sourceFile ?? file,
        signal,
        onEvent,
        runOptions: { ...options },
        phasedMode,
        ...(this.options.workdir ? { workdir: this.options.workdir } : {}),
        ...(this.options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: this.options.checkpointIntervalMs } : {}),
      }),
    );
  }

  /**
   * Records a new run without driving it here and hands it to the
   * supervisor's {@link RunSupervisorOptions.dispatch} (a worker starts it):
   * the pipeline is loaded and checked, and the setup asked, as by
   * {@link start}; resolves with the run's id once it is recorded and handed over.
   */
  async enqueue(request: StartRunRequest): Promise<{ id: string }> {
    const dispatch = this.options.dispatch;
    if (!dispatch) throw new RunRefusal('ORCH_NO_DISPATCH', `${this.self} has nowhere to hand runs to (no queue); start the run here instead`);
    const file = request.file ?? 'pipeline.dot';
    let graph = request.graph;
    let diagnostics = [] as ReturnType<typeof loadPipeline>['diagnostics'];
    if (!graph) {
      const loaded = loadPipeline(request.source, { file, knownHandlerTypes: this.options.handlerTypes ?? [] });
      if (!loaded.ok || !loaded.graph) throw invalidPipeline(file, loaded.diagnostics);
      graph = loaded.graph;
      diagnostics = loaded.diagnostics;
    }
    const options = request.options ?? {};
    const setup = await this.setup({ graph, file, diagnostics, options, how: 'start' });
    const store = await this.options.catalogue.create(graph.name, request.id !== undefined ? { id: request.id } : {});
    await createRun(graph, {
      ...(setup.backend ? { backend: setup.backend } : {}),
      ...withHandlers(setup, new AutoApproveInterviewer(), options.phased_mode ?? 'direct'),
      store,
      initialContext: request.context ?? {},
      source: request.source,
      sourceFile: request.sourceFile ?? file,
      runOptions: { ...options },
      ...(this.options.workdir ? { workdir: this.options.workdir } : {}),
    });
    await dispatch.resume(store.runId);
    return { id: store.runId };
  }

  /** Continues a stopped or parked run with the options it started with; refused when it runs here or elsewhere, or has ended. */
  async resume(id: string, attach: RunAttachment = {}): Promise<SupervisedRun> {
    return this.launchResume(await this.prepareResume(id, { ended: attach.ended ?? 'refuse' }), attach);
  }

  /**
   * Stops a run this supervisor drives at its next safe point (it stays
   * resumable); resolves once it stopped. A run a worker drives is stopped
   * through the supervisor's dispatch, when it can ask (`RunDispatch.cancel`).
   */
  async cancel(id: string, reason = 'cancelled'): Promise<void> {
    const run = this.active.get(id);
    if (!run) {
      const report = await this.report(id);
      if (report.owner?.alive && this.options.dispatch?.cancel) {
        // Driven by a worker: it is asked to stop the run, and has when it lets the run go.
        await this.options.dispatch.cancel(id, reason);
        const until = Date.now() + CANCEL_WAIT_MS;
        while ((await this.report(id)).owner?.alive) {
          if (Date.now() > until) throw new RunRefusal('ORCH_RUN_LOCKED', `run ${id} was asked to stop, and process ${report.owner.pid} on ${report.owner.host} still drives it`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return;
      }
      if (report.owner?.alive) {
        throw new RunRefusal('ORCH_RUN_LOCKED', `run ${id} is driven by process ${report.owner.pid} on ${report.owner.host}, not by ${this.self}; stop it there`, {
          owner: { pid: report.owner.pid, host: report.owner.host, since: report.owner.acquired_at },
        });
      }
      throw new RunRefusal('ORCH_RUN_NOT_RUNNING', `run ${id} is not running (it is ${report.state})`, { state: report.state });
    }
    run.controller.abort(new Error(reason));
    await run.done;
  }

  /** Where run `id` stands. */
  async view(id: string, report?: RunReport): Promise<RunStanding> {
    const active = this.active.get(id);
    report ??= await this.report(id);
    const error = this.crashed.get(id);
    return { id, report, live: active !== undefined, questions: await this.questionsOf(id, report), ...(error !== undefined ? { error } : {}) };
  }

  /** Every run of the catalogue, newest first; one that cannot be read says why. */
  async list(): Promise<(RunStanding | { id: string; problem: string })[]> {
    const listings: RunListing[] = await this.options.catalogue.list();
    const out: (RunStanding | { id: string; problem: string })[] = [];
    for (const listing of listings) out.push('report' in listing ? await this.view(listing.id, listing.report) : listing);
    return out;
  }

  /** The questions run `id` waits for. */
  async questions(id: string): Promise<RunQuestion[]> {
    return this.questionsOf(id, this.active.has(id) ? undefined : await this.report(id));
  }

  /**
   * Answers a question: a live run's goes straight to the waiting node; a
   * parked run's is recorded (as `orchestra answer` does) and, with `resume`
   * (the default) once every question it waits for has an answer, the run is
   * resumed here, after checking the resume would be accepted (nothing is
   * recorded for one that would not).
   */
  async answer(id: string, questionId: string | undefined, text: string, options: { resume?: boolean; replace?: boolean } = {}): Promise<AnswerResult> {
    const run = this.active.get(id);
    if (run) {
      const pending = run.held.pending();
      const target = questionId ?? (pending.length === 1 ? pending[0]?.id : undefined);
      if (target === undefined) throw new RunRefusal('ORCH_NOT_PENDING', pending.length === 0 ? `run ${id} waits for no answer` : `several questions are pending (${pending.map((p) => p.id).join(', ')}); choose one`);
      const answered = run.held.answer(target, text);
      if ('reason' in answered) throw new RunRefusal(answered.reason === 'invalid' ? 'ORCH_BAD_ANSWER' : 'ORCH_NOT_PENDING', answered.message);
      return { id: target, value: answered.value, ...(answered.selectedOption ? { key: answered.selectedOption.key, label: answered.selectedOption.label } : {}), resumed: false };
    }
    const resume = options.resume !== false;
    const store = await this.options.catalogue.open(id);
    // Held while the answer is recorded: a run another live process drives is refused, naming it.
    const lease = await store.acquire();
    let recorded: Awaited<ReturnType<typeof recordAnswer>>;
    let prepared: Awaited<ReturnType<RunSupervisor['prepareResume']>> | undefined;
    try {
      const status = (await store.readCheckpoint())?.status ?? 'running';
      if (status !== 'parked') throw new RunRefusal('ORCH_NOT_PENDING', `run ${id} is not waiting for an answer (it is ${status})`, { state: status });
      // What would stop the resume is found before the answer is recorded (nothing is written for a refused one).
      if (resume) prepared = await this.prepareResume(id, { leaseHeld: true });
      recorded = await recordAnswer(store, text, { ...(questionId !== undefined ? { id: questionId } : {}), ...(options.replace ? { replace: true } : {}) });
    } finally {
      await lease.release();
    }
    if (typeof recorded === 'string') {
      const pending = await readPendingQuestions(store);
      const notPending = (questionId !== undefined && !pending.some((p) => p.id === questionId)) || recorded.includes('already has an answer') || recorded.includes('several questions');
      throw new RunRefusal(notPending ? 'ORCH_NOT_PENDING' : 'ORCH_BAD_ANSWER', recorded);
    }
    const answers = await readRecordedAnswers(store);
    const complete = (await readPendingQuestions(store)).every((p) => answers[p.id] !== undefined);
    if (prepared && complete) {
      if (this.options.dispatch) await this.options.dispatch.resume(id);
      else await this.launchResume(prepared, {});
    }
    return {
      id: recorded.id,
      value: recorded.answer.value,
      ...(recorded.answer.selectedOption ? { key: recorded.answer.selectedOption.key, label: recorded.answer.selectedOption.label } : {}),
      resumed: prepared !== undefined && complete,
      ...(prepared !== undefined && complete && this.options.dispatch ? { dispatched: true } : {}),
      ...(recorded.replaced ? { replaced: true } : {}),
    };
  }

  /** The events of a run: live for a run this supervisor drives, followed from its store for one another process drives, else as recorded. */
  async events(id: string): Promise<RunEventLog> {
    const active = this.active.get(id);
    if (active) return active.log;
    const report = await this.report(id);
    return followRecordedEvents(await this.options.catalogue.open(id), report.owner?.alive === true);
  }

  /**
   * Stops every run it drives and waits for them: a run waiting for an
   * answer parks with its questions pending (so `orchestra answer` and
   * `orchestra resume` work on it, as does a supervisor started later); any
   * other stops at its next safe point. Each stays resumable. A run still
   * busy after `graceMs` (a parallel branch that goes on) is stopped.
   */
  async stopAll(graceMs = 5000, reason = 'shutting down'): Promise<void> {
    const runs = [...this.active.values()];
    for (const run of runs) {
      if (run.held.parkAll() === 0) run.controller.abort(new Error(reason));
    }
    const timer = setTimeout(() => {
      for (const run of runs) run.controller.abort(new Error(reason));
    }, graceMs);
    try {
      await Promise.all(runs.map((r) => r.done));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Whether this supervisor drives run `id` now. */
  isActive(id: string): boolean {
    return this.active.has(id);
  }

  /** Everything `orchestra status` reads of run `id`; a run that cannot be read is a {@link RunUnreadableError}. */
  async report(id: string): Promise<RunReport> {
    const store = await this.options.catalogue.open(id);
    try {
      return await readRunReport(store);
    } catch (error) {
      if (error instanceof OrchestraError) throw new RunUnreadableError(id, error);
      throw error;
    }
  }

  /** The store of run `id` (`ORCH_RUN_NOT_FOUND` when the catalogue has none). */
  async store(id: string): Promise<RunStore> {
    return this.active.get(id)?.store ?? (await this.options.catalogue.open(id));
  }

  private async questionsOf(id: string, report: RunReport | undefined): Promise<RunQuestion[]> {
    const active = this.active.get(id);
    if (active) return active.held.pending().map((q) => ({ ...q, source: 'live' as const }));
    if (!report || report.state !== 'parked') return [];
    return report.pending.map((p) => ({ id: p.id, question: p.question, askedAt: p.asked_at, source: 'parked' as const }));
  }

  /**
   * Everything a resume needs, checked before anything is written: the run
   * can be continued (not live here or elsewhere, not ended), its pipeline
   * is acceptable to this supervisor's setup, and its stages are equipped.
   */
  private async prepareResume(id: string, how: { leaseHeld?: boolean; ended?: 'refuse' | 'report' } = {}): Promise<{ store: RunStore; setup: RunSetup; options: RecordedRunOptions }> {
    if (this.active.has(id)) throw new RunRefusal('ORCH_RUN_ACTIVE', `run ${id} is running in ${this.self} already`);
    const store = await this.options.catalogue.open(id);
    const report = await this.report(id);
    // A run another live process drives (not this one, holding its lease to record an answer).
    if (report.owner?.alive && !how.leaseHeld) throw new RunLockedError(store.location, report.owner);
    if (ENDED.has(report.state) && how.ended !== 'report') throw new RunRefusal('ORCH_RUN_ENDED', `run ${id} has ended (${report.state}); there is nothing to resume`, { state: report.state });
    const options = recordedOptions(report.manifest.run_options);
    const source = await store.readSource();
    const loaded = source !== undefined ? loadPipeline(source, { file: `${id}/pipeline.dot`, knownHandlerTypes: this.options.handlerTypes ?? [] }) : undefined;
    if (!loaded?.graph || hasErrors(loaded.diagnostics)) throw new RunRefusal('ORCH_CHECKPOINT', `run ${id} keeps no readable copy of its pipeline; it cannot be resumed here`);
    const setup = await this.setup({ graph: loaded.graph, file: `${id}/pipeline.dot`, diagnostics: [], options, how: 'resume' });
    return { store, setup, options };
  }

  private async launchResume({ store, setup, options }: Awaited<ReturnType<RunSupervisor['prepareResume']>>, attach: RunAttachment): Promise<SupervisedRun> {
    // Held questions and followers of the log need what the run recorded: held question ids go on from the
    // questions asked before (answered or not), so an answer meant for one asked before never lands on a new one.
    // A caller that asks the questions itself (a terminal) needs neither, and the events are not read.
    const held = (attach.questions ?? 'hold') === 'hold';
    const recorded = held ? await store.readEvents() : [];
    const asked = recorded.filter((line) => line.includes('"type":"interview.started"')).length;
    const phasedMode = attach.phasedMode ?? options.phased_mode ?? 'direct';
    const workdir = attach.workdir ?? this.options.workdir;
    const attached = this.observed(store.runId, attach);
    return this.launch(store, new RunEventLog(recorded), asked, attached, (signal, onEvent, interviewer) =>
      resumePipeline(store, {
        ...(attached.onChildEvent ? { onChildEvent: attached.onChildEvent } : {}),
        ...(setup.backend ? { backend: setup.backend } : {}),
        ...withHandlers(setup, interviewer, phasedMode),
        interviewer,
        signal,
        onEvent,
        phasedMode,
        ...(workdir ? { workdir } : {}),
        ...(this.options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: this.options.checkpointIntervalMs } : {}),
      }),
    );
  }

  /** The attachment with the observer `options.observe` gives for run `id` (if any) hearing its events too. */
  private observed(id: string, attach: RunAttachment): RunAttachment {
    const observer = this.options.observe?.({ id });
    if (!observer) return attach;
    const onEvent = both(attach.onEvent, observer.onEvent);
    const onChildEvent = both(attach.onChildEvent, observer.onChildEvent);
    return { ...attach, ...(onEvent ? { onEvent } : {}), ...(onChildEvent ? { onChildEvent } : {}) };
  }

  /** Starts `work` in `store` (tracked as active until it ends); resolves once it has emitted its first event, rejects with what stopped it before. */
  private async launch(store: RunStore, log: RunEventLog, askedBefore: number, attach: RunAttachment, work: RunWork): Promise<SupervisedRun> {
    const id = store.runId;
    this.crashed.delete(id);
    let settle: { resolve: (r: RunResult) => void; reject: (e: unknown) => void } | undefined;
    const done = new Promise<RunResult>((resolve, reject) => (settle = { resolve, reject }));
    done.catch(() => {}); // a caller that only follows events need not await it
    const launched = launchRun(
      {
        id,
        store,
        log,
        askedBefore,
        questions: attach.questions ?? 'hold',
        work,
        ...(attach.onEvent ? { onEvent: attach.onEvent } : {}),
        ...(attach.signal ? { signal: attach.signal } : {}),
        ...(this.options.questionsNotice ? { questionsNotice: this.options.questionsNotice } : {}),
      },
      {
        restarted: (run, previousId) => {
          this.active.delete(previousId);
          this.active.set(run.id, run);
        },
        ended: (run) => {
          this.active.delete(run.id);
          if (run.error !== undefined) {
            this.crashed.set(run.id, messageOf(run.error));
            settle?.reject(run.error);
          } else settle?.resolve(run.result as RunResult);
        },
      },
    );
    this.active.set(id, launched.run);
    try {
      await launched.started;
    } catch (error) {
      this.crashed.delete(id); // it never started: the caller hears why, the run keeps no note of it
      throw error;
    }
    const run = launched.run;
    return {
      get id() {
        return run.id;
      },
      get store() {
        return run.store;
      },
      done,
    };
  }
}

/** A listener calling `first` then `second` (either may be missing). */
function both<A extends unknown[]>(first: ((...args: A) => void) | undefined, second: ((...args: A) => void) | undefined): ((...args: A) => void) | undefined {
  if (!first || !second) return first ?? second;
  return (...args: A) => {
    first(...args);
    second(...args);
  };
}

/** The registry of a run whose setup brings handlers of its own: the built-ins (over its backend, asking `interviewer`) with them. */
function withHandlers(setup: RunSetup, interviewer: Interviewer, phasedMode: PhasedMode): { registry?: HandlerRegistry } {
  if (!setup.handlers) return {};
  const registry = createDefaultRegistry({ ...(setup.backend ? { backend: setup.backend } : {}), interviewer, phasedMode });
  for (const [type, handler] of Object.entries(setup.handlers)) registry.register(type, handler);
  return { registry };
}
