import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { StructuredToolInterface } from '@langchain/core/tools';

/** A fresh temporary directory; {@link removeTempDirs} deletes every one made. */
const made: string[] = [];
export function tempDir(prefix = 'orchestra-tools-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Deletes the temporary directories made so far (for afterEach/afterAll). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `text` at `root/relative`, creating directories; returns the absolute path. */
export function write(root: string, relative: string, text: string | Uint8Array): string {
  const path = join(root, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** Writes an executable shell script at `root/name`; returns its path. */
export function script(root: string, name: string, body: string): string {
  const path = write(root, name, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

/** Reads a file as text. */
export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** The tool called `name` (failing when there is none). */
export function toolNamed(tools: readonly StructuredToolInterface[], name: string): StructuredToolInterface {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

/** Calls a tool and returns its text result. */
export async function call(tools: readonly StructuredToolInterface[], name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<string> {
  const out: unknown = await toolNamed(tools, name).invoke(args, signal ? { signal } : undefined);
  return String(out);
}

/** Whether a process is gone (no such process, or a zombie waiting to be reaped). */
export function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; Z = exited, not yet reaped by its parent.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

/**
 * Waits until `check` holds, polling every 20 ms, for at most `ms` (a generous
 * bound: the thing waited for takes milliseconds, the bound only keeps a
 * broken implementation from hanging the test).
 */
export async function waitFor(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return check();
}

/** Reads a pid a test command wrote into `file` (waiting for it to appear). */
export async function pidFrom(file: string): Promise<number> {
  await waitFor(() => existsSync(file) && read(file).trim() !== '');
  return Number(read(file).trim());
}
