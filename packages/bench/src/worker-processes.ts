import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { CLI_BIN } from './cli-bundle.js';
import { onExitCleanup } from './exit-cleanup.js';

/** How a worker's run ended, by its log line (`orchestra worker: run <id>: <status>`). */
const ENDED = new Set(['success', 'fail', 'interrupted', 'parked', 'error']);

/** One `orchestra worker` process. */
export interface WorkerProcess {
  index: number;
  child: ChildProcess;
  /** `performance.now()` just before `spawn`, and when it said it takes runs. */
  spawnedAt: number;
  readyAt?: number;
  /** Runs it began driving, in order (by its log lines). */
  driving: string[];
  /** The last lines it wrote to stderr (for errors). */
  tail: string[];
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/** Options of {@link WorkerProcesses}. */
export interface WorkerProcessesOptions {
  /** The checkout's root (the CLI is `packages/cli/bin/orchestra.js` there). */
  root: string;
  /** The PostgreSQL database the workers take runs from. */
  url: string;
  /** Worker processes. */
  count: number;
  /** `--concurrency` of each. */
  concurrency: number;
  /** Told of every run a worker ended: its id and status (`success`, `fail`, ...). */
  onEnded: (id: string, status: string, worker: number) => void;
}

/**
 * `orchestra worker --store URL --concurrency K` processes, as an operator
 * starts them: the real CLI (the built bundle), each in its own process,
 * sharing one database. Their stderr is read line by line to know when
 * each is ready and which runs it drove and ended. Killed with SIGKILL if
 * the benchmark exits or is interrupted before {@link stop}.
 */
export class WorkerProcesses {
  readonly workers: WorkerProcess[] = [];
  private unregister: (() => void) | undefined;

  constructor(private readonly options: WorkerProcessesOptions) {}

  /** Spawns the workers and resolves once every one of them takes runs; rejects if one exits first or after `timeoutMs`. */
  async start(timeoutMs = 60_000): Promise<void> {
    this.unregister = onExitCleanup(() => this.killNow());
    const ready = [];
    for (let index = 0; index < this.options.count; index++) ready.push(this.spawnOne(index, timeoutMs));
    await Promise.all(ready);
  }

  private spawnOne(index: number, timeoutMs: number): Promise<void> {
    const { root, url, concurrency } = this.options;
    const args = [join(root, CLI_BIN), 'worker', '--store', url, '--concurrency', String(concurrency)];
    const env = { ...process.env };
    delete env.ORCHESTRA_STORE;
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const worker: WorkerProcess = { index, child, spawnedAt, driving: [], tail: [] };
    this.workers.push(worker);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${index} did not start within ${timeoutMs} ms:\n${worker.tail.join('\n')}`)), timeoutMs);
      let pending = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        pending += chunk;
        let at: number;
        while ((at = pending.indexOf('\n')) !== -1) {
          const line = pending.slice(0, at);
          pending = pending.slice(at + 1);
          worker.tail.push(line);
          if (worker.tail.length > 20) worker.tail.shift();
          if (worker.readyAt === undefined && line.includes('taking runs from')) {
            worker.readyAt = performance.now();
            clearTimeout(timer);
            resolve();
          }
          const run = /^orchestra worker: run (\S+?):? (\S+)/.exec(line);
          if (run?.[1] && run[2] === 'driving') worker.driving.push(run[1]);
          else if (run?.[1] && run[2] && ENDED.has(run[2])) this.options.onEnded(run[1], run[2], index);
          else if (run?.[1] && line.includes(`run ${run[1]} stopped:`)) this.options.onEnded(run[1], 'error', index);
        }
      });
      child.once('exit', (code, signal) => {
        worker.exit = { code, signal };
        clearTimeout(timer);
        if (worker.readyAt === undefined) reject(new Error(`worker ${index} exited (${code ?? signal}) before taking runs:\n${worker.tail.join('\n')}`));
      });
    });
  }

  /** Workers that exited (by themselves: none should, before {@link stop}). */
  get exited(): WorkerProcess[] {
    return this.workers.filter((w) => w.exit !== undefined);
  }

  /**
   * Stops every worker as an operator does (SIGTERM: its runs park or stop
   * at a safe point), waits up to `graceMs` for each to exit, then kills
   * what is left (SIGKILL). Resolves when all have exited.
   */
  async stop(graceMs = 15_000): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((resolve) => {
            if (w.exit) return resolve();
            const timer = setTimeout(() => w.child.kill('SIGKILL'), graceMs);
            w.child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            w.child.kill('SIGTERM');
          }),
      ),
    );
    this.unregister?.();
    this.unregister = undefined;
  }

  /** Kills every worker still running at once (SIGKILL), synchronously: for an exit on an error or a signal. */
  killNow(): void {
    for (const w of this.workers) if (!w.exit) w.child.kill('SIGKILL');
  }
}
