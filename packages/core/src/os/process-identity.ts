import { readFileSync, readdirSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A process's start time as the OS reports it (Linux: field 22 of
 * `/proc/<pid>/stat`, in clock ticks since boot), which with the PID
 * identifies a process: a reused PID has another start time. `undefined`
 * where there is no /proc or the process is gone.
 */
export function processStartTime(pid: number): string | undefined {
  return procStat(pid)?.startTime;
}

/** What `/proc/<pid>/stat` says of a process: its state letter, process group and start time. */
export interface ProcStat {
  /** `R`, `S`, `D`, `T`, `Z` (a zombie: exited, not yet reaped), ... */
  state: string;
  pgrp: number;
  startTime: string;
}

/** Reads `/proc/<pid>/stat`; `undefined` where there is no /proc or the process is gone. */
export function procStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 overall (state), fields[2] field 5 (pgrp), fields[19] field 22 (starttime).
  return { state: fields[0] ?? '', pgrp: Number(fields[2]), startTime: fields[19] ?? '' };
}

/** True for a process that has exited and waits only to be reaped (or is being torn down). */
function isZombie(stat: ProcStat | undefined): boolean {
  return stat !== undefined && (stat.state === 'Z' || stat.state === 'X');
}

/** This machine's host name, as leases and process records name it. */
export function hostName(): string {
  return hostname();
}

/**
 * True when the process `pid` (with `startTime`, when known) still runs on
 * this host. A process on another host is assumed alive: it cannot be checked.
 */
export function isProcessAlive(pid: number, startTime: string | null | undefined, host: string = hostName()): boolean {
  if (host !== hostName()) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (isZombie(stat)) return false; // exited; its parent has not reaped it yet
  if (startTime === null || startTime === undefined) return true;
  return stat === undefined || stat.startTime === startTime;
}

/**
 * True when a lease's holder still holds it: its lease has not run out
 * (`expires_at`, for leases a holder renews) and, on this host, its process
 * still runs. A holder on another host with no expiry is assumed alive.
 */
export function isHolderAlive(holder: { pid: number; host: string; start_time: string | null; expires_at?: string | undefined }, now = Date.now()): boolean {
  if (holder.expires_at !== undefined && !(Date.parse(holder.expires_at) > now)) return false;
  return isProcessAlive(holder.pid, holder.start_time, holder.host);
}

/**
 * True when a process group has a member that has not exited (zombies do
 * not count: they are done, waiting to be reaped). Reads /proc where there
 * is one; elsewhere asks the kernel whether the group exists.
 */
export function groupHasLiveMembers(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue; // not a PID
    const stat = procStat(entry);
    if (stat && stat.pgrp === pgid && !isZombie(stat)) return true;
  }
  return false;
}

/** This process's own identity, for leases. */
export function ownIdentity(): { pid: number; host: string; start_time: string | null } {
  return { pid: process.pid, host: hostName(), start_time: processStartTime(process.pid) ?? null };
}
