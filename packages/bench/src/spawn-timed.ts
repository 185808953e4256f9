import { spawn } from 'node:child_process';

/** How one spawned command went. */
export interface SpawnResult {
  /** Milliseconds from `spawn` to the process's exit. */
  ms: number;
  /** `performance.now()` just before `spawn`. */
  spawnedAt: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of {@link spawnTimed}. */
export interface SpawnOptions {
  /** The whole environment of the child (nothing is inherited). */
  env: Record<string, string>;
  cwd: string;
  /** Killed after this many ms (default 60 s). */
  timeoutMs?: number;
}

/**
 * Runs `node <args>` (this process's node binary) and times it from just
 * before `spawn` to its `exit` event; output is collected. Standard input
 * is closed, so nothing waits for a terminal.
 */
export function spawnTimed(args: readonly string[], options: SpawnOptions): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    const spawnedAt = performance.now();
    const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      const ms = performance.now() - spawnedAt;
      clearTimeout(timer);
      // Output may still be in the pipes at `exit`: wait for `close` before reading it (outside the timing).
      child.once('close', () => resolve({ ms, spawnedAt, code, signal, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }));
    });
  });
}
