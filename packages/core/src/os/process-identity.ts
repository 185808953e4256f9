import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A process's start time as the OS reports it (Linux: field 22 of
 * `/proc/<pid>/stat`, in clock ticks since boot), which with the PID
 * identifies a process: a reused PID has another start time. `undefined`
 * where there is no /proc or the process is gone.
 */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')': fields start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19]; // field 22 overall: 2 fields (pid, comm) precede this slice's field 3
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
  if (startTime === null || startTime === undefined) return true;
  const now = processStartTime(pid);
  return now === undefined || now === startTime;
}

/** This process's own identity, for leases. */
export function ownIdentity(): { pid: number; host: string; start_time: string | null } {
  return { pid: process.pid, host: hostName(), start_time: processStartTime(process.pid) ?? null };
}
