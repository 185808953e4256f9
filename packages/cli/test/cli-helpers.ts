import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The real `orchestra` launcher. */
export const BIN = fileURLToPath(new URL('../bin/orchestra.js', import.meta.url));
/** The repository root: tool commands run from here in tests. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs `orchestra` to completion in a child process, from the repository root. */
export function orchestra(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `orchestra` without waiting; resolves with its exit code and signal. */
export function startOrchestra(...args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done, output: () => ({ stdout, stderr }) };
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'orchestra-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
