import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { LeaseHolderSchema, type LeaseHolder } from '../engine/store/records.js';
import type { RunLease } from '../engine/store/run-store.js';
import { RunLockedError } from '../engine/store/store-errors.js';
import { isHolderAlive, ownIdentity } from '../os/process-identity.js';
import { createFileExclusive } from './run-files.js';

/** A takeover marker that names no process and is older than this was left by a process that died taking over: it is removed. */
const STALE_TAKEOVER_MS = 10_000;

/** The holder a lock file names; `null` for an unreadable (torn) one; `undefined` when there is none. */
export function readLockFile(path: string): LeaseHolder | null | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const parsed = LeaseHolderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function sameHolder(a: LeaseHolder | null | undefined, b: LeaseHolder): boolean {
  return !!a && a.pid === b.pid && a.host === b.host && a.start_time === b.start_time && a.acquired_at === b.acquired_at;
}

function removeIfExists(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** True when the lock file's holder is a live process (other than a torn file's writer, which died). */
function heldByLiveProcess(holder: LeaseHolder | null): holder is LeaseHolder {
  return holder !== null && isHolderAlive(holder);
}

/**
 * Takes the lease a lock file stands for: the file is created exclusively
 * with this process's PID, host and start time. A lock whose holder is gone
 * (its PID is not running, or runs a process with another start time) is
 * taken over under a takeover marker, so two processes taking over at once
 * cannot both win. Throws {@link RunLockedError} when a live process holds it.
 */
export function acquireFileLease(path: string, location: string): RunLease {
  const holder: LeaseHolder = { ...ownIdentity(), acquired_at: new Date().toISOString() };
  const text = `${JSON.stringify(holder)}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      createFileExclusive(path, text);
      return fileLease(path, holder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = readLockFile(path);
    if (current === undefined) continue; // released in between: try again
    if (heldByLiveProcess(current)) throw new RunLockedError(location, current);
    takeOver(path, current);
  }
  const current = readLockFile(path);
  throw new RunLockedError(location, current ?? { pid: 0, host: 'unknown', start_time: null, acquired_at: 'unknown' });
}

/**
 * True when a takeover marker was left by a process that is gone: its writer
 * (named in it) has exited, or, for a marker that names nobody (torn, or
 * written by an older orchestra), it is older than {@link STALE_TAKEOVER_MS}.
 */
function isDeadMarker(marker: string): boolean {
  let text: string;
  try {
    text = readFileSync(marker, 'utf8');
  } catch {
    return false; // gone already
  }
  try {
    const writer = LeaseHolderSchema.omit({ acquired_at: true }).parse(JSON.parse(text));
    return !isHolderAlive(writer);
  } catch {
    try {
      return Date.now() - statSync(marker).mtimeMs > STALE_TAKEOVER_MS;
    } catch {
      return false;
    }
  }
}

/** Removes a stale lock file, if it is still the one found stale (another process may have taken over first). */
function takeOver(path: string, stale: LeaseHolder | null): void {
  const marker = `${path}.takeover`;
  try {
    createFileExclusive(marker, `${JSON.stringify(ownIdentity())}\n`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another process is taking over, or one died doing it (killed mid-takeover): then its marker goes.
    if (isDeadMarker(marker)) removeIfExists(marker);
    return;
  }
  try {
    const now = readLockFile(path);
    if (now === undefined) return;
    if (stale === null ? now === null : sameHolder(now, stale)) removeIfExists(path);
  } finally {
    removeIfExists(marker);
  }
}

function fileLease(path: string, holder: LeaseHolder): RunLease {
  let released = false;
  return {
    holder,
    release() {
      if (released) return;
      released = true;
      // Only our own lock: after a takeover (we were presumed dead) it is someone else's.
      if (sameHolder(readLockFile(path), holder)) removeIfExists(path);
    },
  };
}
