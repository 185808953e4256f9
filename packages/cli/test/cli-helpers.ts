import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The real `orchestra` in child processes, for what only a process shows:
 * signals and kills, two processes at once, the binary's own streams and
 * exit. Everything else runs the CLI in the test process (`in-process.ts`).
 */

/** The test process's environment for an orchestra child: no colour, whatever the machine says (FORCE_COLOR would win over NO_COLOR). */
export function plainEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  return env;
}

/** The real `orchestra` launcher. */
export const BIN = fileURLToPath(new URL('../bin/orchestra.js', import.meta.url));
/** The repository root: tool commands run from here in tests. */
export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Runs `orchestra` to completion in a child process, from the repository root. */
export function orchestra(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8', env: plainEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `orchestra` without waiting; resolves with its exit code and signal. */
export function startOrchestra(...args: string[]) {
  return startIn(ROOT, plainEnv(), args);
}

/** {@link startOrchestra} from another directory, with no model configuration but that directory's `orchestra.yaml`. */
export function startOrchestraIn(cwd: string, ...args: string[]) {
  return startIn(cwd, modelFreeEnv({ NO_COLOR: '1' }), args);
}

function startIn(cwd: string, env: NodeJS.ProcessEnv, args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
  const env: NodeJS.ProcessEnv = { ...plainEnv(), HOME: emptyHome };
  for (const key of Object.keys(env)) if (key.startsWith('OPENAI_')) delete env[key];
  return { ...env, ...extra };
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

/**
 * A running `orchestra` whose stdin the test writes to as prompts appear on
 * stderr; `waitFor` resolves once stderr contains a text.
 */
export function converse(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: options.env ?? plainEnv() });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return {
    child,
    done,
    output: () => ({ stdout, stderr }),
    /** Resolves once stderr contains `text` (fails the test after 15 s). */
    async waitFor(text: string): Promise<void> {
      const until = Date.now() + 15_000;
      while (!stderr.includes(text)) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${JSON.stringify(text)}; stderr so far:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

/** A fresh temporary directory. */
export function tempDir(prefix = 'orchestra-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}
