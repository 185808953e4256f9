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

/** An empty home directory (no `~/.orchestra/`), shared by the tests of a process. */
const emptyHome = mkdtempSync(join(tmpdir(), 'orchestra-home-'));

/**
 * The test process's environment without any model configuration: no
 * `OPENAI_*` variables and a home without `~/.orchestra/` (so a developer's
 * own settings never leak into a test), plus `extra`.
 */
export function modelFreeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', HOME: emptyHome };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_')) delete env[key];
  return { ...env, ...extra };
}

/** Runs `orchestra` to completion with no model configuration (see {@link modelFreeEnv}). */
export function orchestraWithoutModels(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: modelFreeEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs `orchestra` without blocking this process (a scripted server in the
 * test answers its requests meanwhile); `input` goes to its stdin.
 */
export function runOrchestra(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, env: options.env ?? modelFreeEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'orchestra-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
