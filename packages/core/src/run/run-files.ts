import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** File names of the run directory (an on-disk contract, see docs/run-directory.md). */
export const RUN_FILES = {
  manifest: 'manifest.json',
  checkpoint: 'checkpoint.json',
  journal: 'journal.jsonl',
  events: 'events.jsonl',
  interviews: 'interviews.jsonl',
  pendingQuestions: 'pending-questions.json',
  answers: 'answers.json',
  pipeline: 'pipeline.dot',
  status: 'status.json',
} as const;

/** `<logsRoot>/<nodeId>`, the node's stage directory. */
export function stageDirectory(logsRoot: string, nodeId: string): string {
  return join(logsRoot, nodeId);
}

/**
 * Replaces a file atomically: write a temporary sibling, flush it to disk,
 * rename it over the target. Readers see the old or the new file, never a
 * torn one.
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Writes a JSON file (two-space indented, trailing newline), creating its directory. */
export function writeJson(path: string, value: unknown, dir?: string): void {
  if (dir) mkdirSync(dir, { recursive: true });
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * An append-only line file kept open: one `write` per line. A written line is
 * in the kernel's cache at once, so it survives the process being killed;
 * {@link LineAppender.sync} (or `syncEachLine`) also puts it on disk, which is
 * what survives a power loss.
 */
export class LineAppender {
  private fd: number | undefined;

  constructor(
    readonly path: string,
    private readonly syncEachLine = false,
  ) {
    this.fd = openSync(path, 'a');
  }

  /** Appends one line (a newline is added). */
  append(line: string): void {
    if (this.fd === undefined) throw new Error(`${this.path} is closed`);
    writeSync(this.fd, `${line}\n`);
    if (this.syncEachLine) fsyncSync(this.fd);
  }

  /** Flushes what was appended to disk. */
  sync(): void {
    if (this.fd !== undefined) fsyncSync(this.fd);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
