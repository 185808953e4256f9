import type { RunDispatch } from '@orchestra/core';
import PgBoss from 'pg-boss';
import { databaseError } from '../database/database-errors.js';
import type { PostgresDatabase } from '../database/postgres-database.js';

/** The pg-boss queue of runs to start or continue. */
export const RUN_QUEUE = 'orchestra-runs';

/** The channel a worker is woken on when a run is queued (it also polls). */
export const JOBS_CHANNEL = 'orchestra_jobs';

/** The channel workers are asked on to stop a run they drive (the payload is the run's id). */
export const CANCEL_CHANNEL = 'orchestra_cancel';

/** What a job asks: start or continue run `id` (a new run is recorded before it is queued, so both are a resume). */
export interface RunJob {
  /** pg-boss's id of the job. */
  jobId: string;
  /** The run's id in the catalogue. */
  runId: string;
}

/** Options of a {@link RunQueue}. */
export interface RunQueueOptions {
  /**
   * Run pg-boss's upkeep in this process (expiring jobs whose worker died
   * before acknowledging them, archiving): workers do; a process that only
   * queues (`orchestra run --detach`, `answer`) does not.
   */
  supervise?: boolean;
}

/**
 * The queue of runs on pg-boss, in the same database as the runs (schema
 * `pgboss`). A job names a run to start or continue; it is acknowledged as
 * soon as a worker has taken the run's lease, so a job never outlives a
 * node: from then on the lease says who drives the run, and a run whose
 * worker dies is queued again when its lease runs out. At most one job per
 * run waits at a time (the queue's `short` policy keyed by run id; a job
 * for a run whose last job is still active may wait: `stately` would let
 * such a job block the head of the queue until the active one expires).
 */
export class RunQueue implements RunDispatch {
  private boss: PgBoss | undefined;
  private starting: Promise<PgBoss> | undefined;

  constructor(
    readonly db: PostgresDatabase,
    private readonly options: RunQueueOptions = {},
  ) {}

  /** Starts pg-boss (creating its schema and the queue when missing); once. */
  start(): Promise<PgBoss> {
    this.starting ??= (async () => {
      await this.db.connect();
      const boss = new PgBoss({
        connectionString: this.db.target.url,
        application_name: 'orchestra-queue',
        max: 4,
        supervise: this.options.supervise === true,
        schedule: false,
        migrate: true,
      });
      // pg-boss reports lost connections as events; statements that fail throw to their caller.
      boss.on('error', () => {});
      try {
        await boss.start();
        await boss.createQueue(RUN_QUEUE, { name: RUN_QUEUE, policy: 'short', retryLimit: 5, retryDelay: 2, expireInSeconds: 300 });
      } catch (error) {
        this.starting = undefined;
        await boss.stop({ graceful: false, wait: false }).catch(() => {});
        throw databaseError(error, this.db.target);
      }
      this.boss = boss;
      return boss;
    })();
    return this.starting;
  }

  /** Queues run `id` to be started or continued by a worker (a run already waiting in the queue is not queued twice). */
  async resume(id: string): Promise<void> {
    await this.send(id);
  }

  /** {@link resume}, saying whether a job was queued (false: one already waits); `quiet` wakes no worker. */
  async send(id: string, how: { quiet?: boolean } = {}): Promise<boolean> {
    const boss = await this.start();
    let queued: string | null;
    try {
      queued = await boss.send(RUN_QUEUE, { run: id }, { singletonKey: id });
    } catch (error) {
      throw databaseError(error, this.db.target);
    }
    if (queued !== null && !how.quiet) await this.db.query(`SELECT pg_notify('${JOBS_CHANNEL}', $1)`, [id]).catch(() => {});
    return queued !== null;
  }

  /** Asks the worker driving run `id` to stop it at its next safe point (NOTIFY on {@link CANCEL_CHANNEL}). */
  async cancel(id: string): Promise<void> {
    await this.db.query(`SELECT pg_notify('${CANCEL_CHANNEL}', $1)`, [id]);
  }

  /** Takes up to `count` jobs (each now active for this worker). */
  async take(count: number): Promise<RunJob[]> {
    const boss = await this.start();
    const jobs = await boss.fetch<{ run?: unknown }>(RUN_QUEUE, { batchSize: count });
    return jobs.flatMap((job) => (typeof job.data?.run === 'string' ? [{ jobId: job.id, runId: job.data.run }] : []));
  }

  /** Acknowledges a job: its run is driven (or needs nothing). */
  async complete(job: RunJob): Promise<void> {
    await (await this.start()).complete(RUN_QUEUE, job.jobId);
  }

  /** Gives a job back to be tried again later (the database was away, say). */
  async fail(job: RunJob, why: string): Promise<void> {
    await (await this.start()).fail(RUN_QUEUE, job.jobId, { reason: why });
  }

  /** Jobs waiting (created or to be retried), for tests and benchmarks. */
  async waiting(): Promise<number> {
    return (await this.start()).getQueueSize(RUN_QUEUE);
  }

  /** Stops pg-boss. */
  async stop(): Promise<void> {
    const boss = this.boss ?? (this.starting ? await this.starting.catch(() => undefined) : undefined);
    this.boss = undefined;
    this.starting = undefined;
    await boss?.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => {});
  }
}
