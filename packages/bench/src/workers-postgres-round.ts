import { RunSupervisor } from '@orchestra/core';
import { PostgresRunCatalogue, RunQueue } from '@orchestra/store-postgres';
import type { PostgresServer } from '@orchestra/testing/postgres';
import { readRunTimings, type Submitted } from './run-timings.js';
import { WorkerProcesses } from './worker-processes.js';
import { checkCompleted, summarizeRound, type RoundResult } from './workers-summary.js';

/** Options of {@link postgresRound}. */
export interface PostgresRoundOptions {
  server: PostgresServer;
  /** The checkout's root (for the CLI). */
  root: string;
  /** Worker processes, and `--concurrency` of each. */
  workers: number;
  concurrency: number;
  /** Runs queued in the burst. */
  runs: number;
  /** Runs queued one at a time afterwards (pick-up latency). */
  probes: number;
  /** The pipeline's DOT text, and the nodes each run goes through (start and exit included). */
  source: string;
  nodesEach: number;
  progress: (line: string) => void;
}

/** Ended runs by id, and waiting for some of them. */
class Endings {
  readonly status = new Map<string, string>();
  private waiters: { ids: readonly string[]; resolve: () => void }[] = [];

  ended(id: string, status: string): void {
    this.status.set(id, status);
    this.waiters = this.waiters.filter((w) => {
      if (!w.ids.every((i) => this.status.has(i))) return true;
      w.resolve();
      return false;
    });
  }

  /** Resolves once every run of `ids` has ended; rejects after `ms`, or when `broken()` names a problem (checked every second). */
  waitFor(ids: readonly string[], ms: number, broken: () => string | undefined): Promise<void> {
    if (ids.every((i) => this.status.has(i))) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const check = setInterval(() => {
        const problem = broken() ?? (Date.now() - started > ms ? `timed out after ${ms} ms with ${ids.filter((i) => !this.status.has(i)).length} of ${ids.length} runs not ended` : undefined);
        if (problem) {
          clearInterval(check);
          reject(new Error(problem));
        }
      }, 1000);
      this.waiters.push({
        ids,
        resolve: () => {
          clearInterval(check);
          resolve();
        },
      });
    });
  }
}

/**
 * One PostgreSQL round: a fresh database on `server`; `workers` processes
 * of `orchestra worker --store URL --concurrency K` started and ready; then
 * a front end in this process (a `RunSupervisor` over a
 * `PostgresRunCatalogue`, dispatching to a `RunQueue`, as `orchestra run
 * --detach` and `serve --store` do) queues `runs` simulated runs one after
 * the other as fast as it can (the burst), waits until the workers have
 * ended them all (their log lines), then queues `probes` runs one at a time,
 * each once the one before has ended. The workers are stopped (SIGTERM,
 * then SIGKILL after 15 s) and the front end closed however the round ends.
 * The timings come from the runs' events in the database.
 */
export async function postgresRound(o: PostgresRoundOptions): Promise<RoundResult> {
  const url = await o.server.createDatabase(`workers_${o.workers}_${Date.now()}`);
  const catalogue = new PostgresRunCatalogue(url);
  const queue = new RunQueue(catalogue.db);
  const supervisor = new RunSupervisor({ catalogue, dispatch: queue });
  const endings = new Endings();
  const pool = new WorkerProcesses({ root: o.root, url, count: o.workers, concurrency: o.concurrency, onEnded: (id, status) => endings.ended(id, status) });
  const broken = () => {
    const gone = pool.exited[0];
    return gone ? `worker ${gone.index} exited (${gone.exit?.code ?? gone.exit?.signal}):\n${gone.tail.join('\n')}` : undefined;
  };
  try {
    // The schema and the queue exist before the workers start, as after `orchestra db migrate`.
    await catalogue.db.connect();
    await queue.start();
    await pool.start();
    o.progress(`  ${o.workers} worker process(es) ready (spawn → ready ${pool.workers.map((w) => ((w.readyAt ?? 0) - w.spawnedAt).toFixed(0)).join(', ')} ms); queueing ${o.runs} runs`);
    const burst: Submitted[] = [];
    const enqueueMs: number[] = [];
    for (let i = 0; i < o.runs; i++) {
      const enqueuedAt = Date.now();
      const t = performance.now();
      const { id } = await supervisor.enqueue({ source: o.source, options: { simulate: true } });
      enqueueMs.push(performance.now() - t);
      burst.push({ id, enqueuedAt });
      if ((i + 1) % 200 === 0) o.progress(`  queued ${i + 1}/${o.runs}; ended ${endings.status.size}`);
    }
    await endings.waitFor(
      burst.map((r) => r.id),
      Math.max(120_000, o.runs * 1_000),
      broken,
    );
    o.progress(`  all ${o.runs} ended; ${o.probes} runs queued one at a time`);
    const probes: Submitted[] = [];
    for (let i = 0; i < o.probes; i++) {
      const enqueuedAt = Date.now();
      const { id } = await supervisor.enqueue({ source: o.source, options: { simulate: true } });
      probes.push({ id, enqueuedAt });
      await endings.waitFor([id], 60_000, broken);
    }
    const failed = [...endings.status].filter(([, status]) => status !== 'success');
    if (failed.length) throw new Error(`${failed.length} runs did not succeed (first: ${failed[0]?.join(' ')})`);
    const burstTimings = await readRunTimings(catalogue, burst);
    const probeTimings = await readRunTimings(catalogue, probes);
    const label = `PostgreSQL, ${o.workers} worker${o.workers === 1 ? '' : 's'}`;
    checkCompleted(label, [...burstTimings, ...probeTimings], o.nodesEach);
    return summarizeRound(
      {
        label,
        processes: o.workers,
        concurrency: o.concurrency,
        perWorker: pool.workers.map((w) => w.driving.length),
        workerStartMs: pool.workers.map((w) => (w.readyAt ?? w.spawnedAt) - w.spawnedAt),
      },
      burstTimings,
      probeTimings,
      enqueueMs,
    );
  } finally {
    await pool.stop();
    await queue.stop();
    await catalogue.close();
  }
}
