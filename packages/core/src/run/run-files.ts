import { closeSync, fstatSync, fsyncSync, linkSync, openSync, readFileSync, readSync, renameSync, truncateSync, unlinkSync, writeSync } from 'node:fs';
import { OrchestraError } from '../errors.js';
import { NoSpaceError } from '../engine/store/store-errors.js';
import type { ReservedNodeId } from '../graph/reserved-node-ids.js';

/**
 * A name the run directory may give one of its own entries: one with a dot
 * (no node id has one), or one of `RESERVED_NODE_IDS`, which no node may
 * take. Anything else could be a node's stage directory.
 */
type RunEntryName = `${string}.${string}` | ReservedNodeId;

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
  lock: 'run.lock',
  processes: 'processes.json',
} as const satisfies Record<string, RunEntryName>;

/**
 * Directories of the run directory besides the stage directories (see
 * docs/run-directory.md): `artifacts/`, reserved by spec §5.5 and not written
 * yet. Each is in `RESERVED_NODE_IDS`, so no node's stage can land on one.
 */
export const RUN_DIRECTORIES = {
  artifacts: 'artifacts',
} as const satisfies Record<string, ReservedNodeId>;

/**
 * Runs a file operation, turning a full disk into a {@link NoSpaceError}
 * naming `where` (the run stays resumable: nothing half-written is kept).
 */
export function diskOp<T>(where: string, op: () => T): T {
  try {
    return op();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT') throw new NoSpaceError(where, { cause: error });
    throw error;
  }
}

function writeAndSync(path: string, text: string, flags: string): void {
  const fd = openSync(path, flags);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces a file atomically: write a temporary sibling, flush it to disk,
 * rename it over the target. Readers see the old or the new file, never a
 * torn one.
 */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  diskOp(path, () => {
    try {
      writeAndSync(tmp, text, 'w');
      renameSync(tmp, path);
    } catch (error) {
      try {
        unlinkSync(tmp);
      } catch {
        // not there
      }
      throw error;
    }
  });
}

/**
 * Creates a file with its whole content, exclusively: it appears complete or
 * not at all, and only if nothing has that name yet (the hard link fails
 * then). Throws an `EEXIST` error when the name is taken.
 */
export function createFileExclusive(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.new`;
  diskOp(path, () => {
    writeAndSync(tmp, text, 'w');
    try {
      linkSync(tmp, path);
    } finally {
      unlinkSync(tmp);
    }
  });
}

/**
 * The length of a line file's complete lines (bytes up to its last newline)
 * and its total length, reading backwards from the end (a long file is not
 * read whole).
 */
function completeLength(path: string): { valid: number; total: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const total = fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(total, 64 * 1024));
    for (let end = total; end > 0; ) {
      const start = Math.max(0, end - chunk.length);
      const read = readSync(fd, chunk, 0, end - start, start);
      const newline = chunk.subarray(0, read).lastIndexOf(0x0a);
      if (newline >= 0) return { valid: start + newline + 1, total };
      end = start;
    }
    return { valid: 0, total };
  } finally {
    closeSync(fd);
  }
}

/**
 * An append-only line file kept open: one `write` per line. A written line is
 * in the kernel's cache at once, so it survives the process being killed;
 * {@link LineAppender.sync} (or `syncEachLine`) also puts it on disk, which is
 * what survives a power loss. Opening it cuts off a last line a crash left
 * unfinished, so appended lines start on a line of their own.
 */
export class LineAppender {
  private fd: number | undefined;

  constructor(
    readonly path: string,
    private readonly syncEachLine = false,
  ) {
    const length = completeLength(path);
    if (length && length.valid < length.total) truncateSync(path, length.valid);
    this.fd = diskOp(path, () => openSync(path, 'a'));
  }

  /** Appends one line (a newline is added). */
  append(line: string): void {
    const fd = this.fd;
    if (fd === undefined) throw new OrchestraError('ORCH_INTERNAL', `${this.path} is closed`);
    diskOp(this.path, () => {
      writeSync(fd, `${line}\n`);
      if (this.syncEachLine) fsyncSync(fd);
    });
  }

  /** Flushes what was appended to disk (a file that cannot be flushed, such as a device, is left as it is). */
  sync(): void {
    const fd = this.fd;
    if (fd === undefined) return;
    try {
      diskOp(this.path, () => fsyncSync(fd));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EINVAL') throw error;
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/** The complete lines of a line file (a torn last line dropped), and whether one was torn. */
export function readLines(path: string): { lines: string[]; torn: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return { lines: [], torn: false };
  }
  const lines = text.split('\n');
  const last = lines.pop();
  return { lines, torn: last !== undefined && last !== '' };
}
