import { OrchestraError } from '../../errors.js';
import type { LeaseHolder } from './records.js';

/** Thrown when a run's stored state cannot be used (missing, corrupt, inconsistent). Code `ORCH_CHECKPOINT`. */
export class CheckpointError extends OrchestraError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('ORCH_CHECKPOINT', message, options);
    this.name = 'CheckpointError';
  }
}

/** Thrown when another process owns the run (holds its lease). Code `ORCH_RUN_LOCKED`. */
export class RunLockedError extends OrchestraError {
  constructor(
    readonly location: string,
    readonly holder: LeaseHolder,
  ) {
    super('ORCH_RUN_LOCKED', `${location} is in use by process ${holder.pid} on ${holder.host} (since ${holder.acquired_at}); wait for it to end or stop it, then try again`);
    this.name = 'RunLockedError';
  }
}

/** Thrown when the store's disk is full. Code `ORCH_NO_SPACE`; the run stays resumable. */
export class NoSpaceError extends OrchestraError {
  constructor(path: string, options?: { cause?: unknown }) {
    super('ORCH_NO_SPACE', `no space left on ${path}; free some space, then resume the run`, options);
    this.name = 'NoSpaceError';
  }
}

/** The error codes of a full disk or an exhausted quota. */
function isNoSpaceCode(code: unknown): boolean {
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/**
 * The {@link NoSpaceError} a failure amounts to, if it was a full disk: the
 * error itself, or one in its `cause` chain, or a system error with code
 * `ENOSPC`/`EDQUOT` (named by its `path`, else `where`). Running out of space
 * is an interruption, never a node's outcome: the run stops resumable.
 */
export function noSpaceIn(error: unknown, where = 'the disk'): NoSpaceError | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof NoSpaceError) return e;
    const { code, path } = e as NodeJS.ErrnoException;
    if (isNoSpaceCode(code)) return new NoSpaceError(typeof path === 'string' ? path : where, { cause: error });
  }
  return undefined;
}

/** The brand of a {@link StoreUnavailableError}, shared by every copy of `@orchestra/core`. */
const UNAVAILABLE = Symbol.for('orchestra.store-unavailable');

/**
 * Thrown by a store that cannot be used now: a database that cannot be
 * reached, refuses the login, is at a newer schema, or refuses a statement.
 * The runs in it are untouched; the code says which (the store's own
 * codes). Front ends answer it as the service's trouble,
 * not the request's (the HTTP API: 503); {@link isStoreUnavailable} tells it
 * across copies of the package.
 */
export class StoreUnavailableError<Code extends string = string> extends OrchestraError<Code> {
  readonly [UNAVAILABLE] = true;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'StoreUnavailableError';
  }
}

/** Whether `error` is a {@link StoreUnavailableError} (of any copy of `@orchestra/core`). */
export function isStoreUnavailable(error: unknown): error is StoreUnavailableError {
  return typeof error === 'object' && error !== null && (error as { [UNAVAILABLE]?: unknown })[UNAVAILABLE] === true;
}
