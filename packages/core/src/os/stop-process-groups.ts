import { KILL_GRACE_MS, killProcessGroup } from './kill-process-group.js';
import { groupHasLiveMembers, hostName, procStat } from './process-identity.js';

/** A process group to stop: its id (the leader's PID), the leader's start time when known, and its host. */
export interface ProcessGroupRef {
  pgid: number;
  start_time: string | null;
  host: string;
}

/**
 * What a recorded group is now: `same` (its leader runs on this host with the
 * recorded start time: the group orchestra started), `gone` (nothing of it
 * runs), or `unverified` with the reason it cannot be shown to be the one
 * recorded. Only `same` may be signalled: a record is data in a file, and a
 * PID in it may name anybody's process.
 */
export type GroupCheck = { kind: 'same' } | { kind: 'gone' } | { kind: 'unverified'; reason: string };

/** Checks a recorded group against the running processes (see {@link GroupCheck}). */
export function checkGroup(ref: ProcessGroupRef): GroupCheck {
  if (ref.host !== hostName()) return { kind: 'unverified', reason: `it was started on host ${ref.host}, not this one` };
  if (!groupHasLiveMembers(ref.pgid)) return { kind: 'gone' };
  if (ref.start_time === null) return { kind: 'unverified', reason: 'its start time was not recorded, so it cannot be told from another process with the same id' };
  const leader = procStat(ref.pgid);
  if (leader === undefined || leader.state === 'Z' || leader.state === 'X') {
    return { kind: 'unverified', reason: 'its leader has exited, so the processes left in the group cannot be shown to be the ones started' };
  }
  if (leader.startTime !== ref.start_time) return { kind: 'unverified', reason: 'the id now belongs to another process (a different start time)' };
  return { kind: 'same' };
}

/** What {@link stopProcessGroups} did. */
export interface StoppedGroups<T> {
  /** Groups verified as recorded, and stopped. */
  stopped: T[];
  /** Groups that still run but could not be verified: left alone, for the caller to report. */
  unverified: (T & { reason: string })[];
}

/**
 * Stops the recorded groups that are verifiably the ones recorded (see
 * {@link checkGroup}), all at once, each with {@link killProcessGroup}:
 * SIGTERM, then SIGKILL after `graceMs`. Groups that are gone are dropped;
 * groups that still run but cannot be verified (another host, no recorded
 * start time, the leader exited, the PID reused) are never signalled and are
 * returned as `unverified`.
 */
export async function stopProcessGroups<T extends ProcessGroupRef>(groups: readonly T[], graceMs = KILL_GRACE_MS): Promise<StoppedGroups<T>> {
  const live: T[] = [];
  const unverified: (T & { reason: string })[] = [];
  for (const group of groups) {
    const check = checkGroup(group);
    if (check.kind === 'same') live.push(group);
    else if (check.kind === 'unverified') unverified.push({ ...group, reason: check.reason });
  }
  await Promise.all(live.map((group) => killProcessGroup(group.pgid, { graceMs })));
  return { stopped: live, unverified };
}
