import { hostname } from 'node:os';
import { OrchestraError, RunLockedError, RunSupervisor, type RunResult, type RunSetupHook, type RunSupervisorOptions } from '@orchestra/core';
import { isConnectionError } from '../database/database-errors.js';
import type { PostgresRunCatalogue } from '../store/pg-run-catalogue.js';
import { DEFAULT_LEASE_MS } from '../store/pg-lease.js';
import { clearDeadLease, markRefused, runsToRecover } from './lease-sweep.js';
import { CANCEL_CHANNEL, JOBS_CHANNEL, RunQueue, type RunJob } from './run-queue.js';

/** Options of a {@link RunWorker}. */
export interface RunWorkerOptions {
  /** The runs' database. */
  catalogue: PostgresRunCatalogue;
  /** Checks and equips each run before it starts or resumes (its backend): as the server's. */
  setup?: RunSetupHook;
  /** Node types of the handlers `setup` brings. */
  handlerTypes?: readonly string[];
  /** Runs driven at once (default 2). */
  concurrency?: number;
  /** Where tool commands run (default the worker's working directory). */
  workdir?: string;
  /** How often the queue is polled when no notification wakes the worker (default 1 s). */
  pollMs?: number;
  /** How often runs are checked for dead owners (default half the lease time). */
  sweepMs?: number;
  /** How old a run with no live owner must be before a sweep queues it again (default the sweep interval): a run just queued is left to its job. */
  quietMs?: number;
  /** Passed to the engine (tests use 0). */
  checkpointIntervalMs?: number;
  /** Told what the worker does, one line at a time (default: nothing). */
  log?: (line: string) => void;
  /** Follows each run the worker drives (`RunSupervisorOptions.observe`): `orchestra worker --otel` traces them. */
  observe?: RunSupervisorOptions['observe'];
}

/** How many ended runs a worker remembers ({@link RunWorker.ended}): a worker lives long. */
const ENDED_KEPT = 1000;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Executes the runs of a PostgreSQL catalogue: takes jobs from the pg-boss
 * queue (a run to start, a parked run whose answers arrived, a run whose
 * owner's lease ran out) and drives up to `concurrency` runs at once through
 * a {@link RunSupervisor}, holding each run's lease. Questions park the run
 * (answer it from anywhere: its resume is queued). Runs whose owner died are
 * found by their leases and queued again. {@link stop} parks or stops its
 * runs at a safe point, releases their leases and queues them again for
 * another worker.
 */
export class RunWorker {
  readonly supervisor: RunSupervisor;
  readonly queue: RunQueue;
  private readonly running = new Map<string, Promise<unknown>>();
  private stopping = false;
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  private unlisten: (() => void) | undefined;
  private unlistenCancel: (() => void) | undefined;
  /** The last {@link ENDED_KEPT} runs this worker drove, and how they ended (for tests and the benchmark). */
  readonly ended: { id: string; status: RunResult['status'] | 'error'; at: number }[] = [];

  private record(id: string, status: RunResult['status'] | 'error'): void {
    this.ended.push({ id, status, at: Date.now() });
    if (this.ended.length > ENDED_KEPT) this.ended.splice(0, this.ended.length - ENDED_KEPT);
  }

  constructor(private readonly options: RunWorkerOptions) {
    this.queue = new RunQueue(options.catalogue.db, { supervise: true });
    this.supervisor = new RunSupervisor({
      catalogue: options.catalogue,
      ...(options.setup ? { setup: options.setup } : {}),
      ...(options.handlerTypes ? { handlerTypes: options.handlerTypes } : {}),
      workdir: options.workdir ?? process.cwd(),
      ...(options.checkpointIntervalMs !== undefined ? { checkpointIntervalMs: options.checkpointIntervalMs } : {}),
      dispatch: this.queue,
      ...(options.observe ? { observe: options.observe } : {}),
      self: `worker ${process.pid} on ${hostname()}`,
    });
  }

  private get concurrency(): number {
    return Math.max(1, this.options.concurrency ?? 2);
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  /** Connects (bringing the schema up to date), starts the queue and begins taking jobs. */
  async start(): Promise<void> {
    await this.options.catalogue.db.connect();
    await this.queue.start();
    this.unlisten = await this.options.catalogue.db.listen(JOBS_CHANNEL, () => this.wake?.());
    // Asked to stop a run (the API's cancel, from any machine): done here if this worker drives it.
    this.unlistenCancel = await this.options.catalogue.db.listen(CANCEL_CHANNEL, (id) => {
      if (id && this.supervisor.isActive(id)) void this.supervisor.cancel(id, 'cancelled').catch(() => {});
    });
    const sweepMs = this.options.sweepMs ?? DEFAULT_LEASE_MS / 2;
    this.sweeper = setInterval(() => void this.sweep(), sweepMs);
    this.sweeper.unref();
    void this.sweep();
    this.loop = this.takeJobs();
  }

  /** Runs this worker drives now. */
  get active(): number {
    return this.running.size;
  }

  private async takeJobs(): Promise<void> {
    for (let backoff = 0; !this.stopping; ) {
      const free = this.concurrency - this.running.size;
      let jobs: RunJob[] = [];
      if (free > 0) {
        try {
          jobs = await this.queue.take(free);
          backoff = 0;
        } catch (error) {
          backoff = Math.min(backoff * 2 || 250, 5000);
          this.log(`cannot take jobs (${messageOf(error).split('\n')[0]}); trying again in ${backoff} ms`);
        }
      }
      for (const job of jobs) await this.handle(job);
      if (jobs.length === 0 || this.running.size >= this.concurrency) await this.idle(backoff || (this.options.pollMs ?? 1000));
    }
  }

  /** Waits until woken (a job queued, a run ended) or `ms` passed. */
  private idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        this.wake = undefined;
        done();
      };
    });
  }

  /** Starts or continues the job's run; acknowledges the job once the run is ours (or needs nothing). */
  private async handle(job: RunJob): Promise<void> {
    const id = job.runId;
    if (this.stopping) {
      await this.queue.fail(job, 'the worker is stopping').catch(() => {});
      return;
    }
    try {
      const run = await this.supervisor.resume(id, { questions: 'park' });
      const done = run.done.then(
        async (result) => {
          this.record(id, result.status);
          this.log(`run ${id}: ${result.status}${result.failureReason ? ` (${result.failureReason})` : ''}`);
          // Stopped by this worker's shutdown: another worker goes on with it.
          if (result.status === 'interrupted' && this.stopping) await this.queue.resume(run.id).catch(() => {});
        },
        (error: unknown) => {
          this.record(id, 'error');
          this.log(`run ${id} stopped: ${messageOf(error)}`);
        },
      );
      this.running.set(id, done);
      void done.finally(() => {
        this.running.delete(id);
        this.wake?.();
      });
      await this.queue.complete(job).catch(() => {});
      this.log(`run ${id}: driving`);
    } catch (error) {
      await this.refused(job, error);
    }
  }

  /** A job whose run could not be taken: done with it, or given back to be tried again. */
  private async refused(job: RunJob, error: unknown): Promise<void> {
    const id = job.runId;
    const code = error instanceof OrchestraError ? error.code : undefined;
    if (error instanceof RunLockedError || code === 'ORCH_RUN_ACTIVE') {
      this.log(`run ${id}: driven elsewhere (${messageOf(error)})`);
    } else if (code === 'ORCH_RUN_ENDED') {
      await clearDeadLease(this.options.catalogue.db, id).catch(() => {});
    } else if (code === 'ORCH_RUN_NOT_FOUND') {
      this.log(`run ${id}: no such run; job dropped`);
    } else if (isConnectionError(error) || code === 'ORCH_DB_UNREACHABLE') {
      await this.queue.fail(job, messageOf(error)).catch(() => {});
      return;
    } else {
      // Refused for good here (tools not allowed, no model, a damaged run): sweeps leave it alone until it is queued again.
      this.log(`run ${id}: cannot be run here: ${messageOf(error)}; queue it again once a worker can (orchestra resume ${id} --detach)`);
      await markRefused(this.options.catalogue.db, id).catch(() => {});
    }
    await this.queue.complete(job).catch(() => {});
  }

  /** Queues the runs whose owner died. */
  private async sweep(): Promise<void> {
    if (this.stopping) return;
    try {
      const quietMs = this.options.quietMs ?? this.options.sweepMs ?? DEFAULT_LEASE_MS / 2;
      for (const id of await runsToRecover(this.options.catalogue.db, quietMs)) {
        if (this.supervisor.isActive(id)) continue;
        if (await this.queue.send(id)) this.log(`run ${id}: nobody drives it; queued to go on`);
      }
    } catch {
      // the database is away: the next sweep tries again
    }
  }

  /**
   * Stops taking jobs; runs waiting for an answer park, the others stop at
   * their next safe point (after `graceMs` they are stopped), releasing
   * their leases, and are queued again for another worker.
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.sweeper) clearInterval(this.sweeper);
    this.unlisten?.();
    this.unlistenCancel?.();
    this.wake?.();
    await this.loop?.catch(() => {});
    await this.supervisor.stopAll(graceMs, 'the worker is stopping');
    await Promise.allSettled([...this.running.values()]);
    await this.queue.stop();
  }
}
