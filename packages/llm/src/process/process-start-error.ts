import { statSync } from 'node:fs';
import { OrchestraError } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';

/**
 * A command could not be started: the executable is missing or not
 * executable, or the working directory does not exist. Code
 * `ORCH_PROCESS_START`; never retryable (running it again will not help).
 * The message is one line: `cannot run "claude": not found (ENOENT)`.
 */
export class ProcessStartError extends OrchestraError {
  /** The system error code (`ENOENT`, `EACCES`), when there is one. */
  readonly errno: string | undefined;
  readonly retryable = false;

  constructor(file: string, cwd: string, cause: unknown) {
    const errno = (cause as NodeJS.ErrnoException | undefined)?.code;
    super('ORCH_PROCESS_START', `cannot run ${quoted(file)}: ${reasonOf(errno, cwd, cause)}`, { cause });
    this.name = 'ProcessStartError';
    this.errno = errno;
  }
}

function quoted(text: string): string {
  return `"${escapeControl(text, { keepNewlines: false })}"`;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function reasonOf(errno: string | undefined, cwd: string, cause: unknown): string {
  // Node reports a missing working directory as ENOENT of the executable.
  if (errno === 'ENOENT' && !isDirectory(cwd)) return `its working directory ${quoted(cwd)} does not exist (ENOENT)`;
  if (errno === 'ENOENT') return 'not found (ENOENT)';
  if (errno === 'EACCES') return 'permission denied (EACCES)';
  const message = cause instanceof Error ? cause.message : String(cause);
  return escapeControl(message, { keepNewlines: false });
}
