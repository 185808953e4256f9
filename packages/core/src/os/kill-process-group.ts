import { setTimeout as sleep } from 'node:timers/promises';
import { groupHasLiveMembers } from './process-identity.js';

/** Grace between SIGTERM and SIGKILL when orchestra stops a process group. */
export const KILL_GRACE_MS = 2000;

/**
 * How long, after SIGKILL, {@link killProcessGroup} waits for the group's
 * members to go (a process in uninterruptible sleep dies only when its I/O
 * ends) before it gives up.
 */
export const KILL_SETTLE_MS = 1000;

/** Between two looks at whether a group still has live members. */
const POLL_MS = 20;

/** Whether `kill(-pgid)` reaches one process group (and not our own group, or every process). */
function namesOneGroup(pgid: number): boolean {
  return Number.isInteger(pgid) && pgid >= 2;
}

/**
 * Sends `signal` to every process of group `pgid` (`kill(-pgid, signal)`).
 * False when nothing was signalled: no such group, not ours to signal, or a
 * `pgid` that names no single group (below 2: `kill(0)` is our own group,
 * `kill(-1)` every process we may signal).
 */
export function signalProcessGroup(pgid: number, signal: NodeJS.Signals | number): boolean {
  if (!namesOneGroup(pgid)) return false;
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once group `pgid` has no live members (true), or after `ms` (false when it still has). */
async function settled(pgid: number, ms: number): Promise<boolean> {
  const deadline = performance.now() + ms;
  while (groupHasLiveMembers(pgid)) {
    if (performance.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/** Options of {@link killProcessGroup}. */
export interface KillProcessGroupOptions {
  /** How long the group has, after SIGTERM, before SIGKILL (default {@link KILL_GRACE_MS}). */
  graceMs?: number;
}

/**
 * Stops process group `pgid`: SIGTERM, then SIGKILL to what is left of it
 * once `graceMs` has passed with a member still alive, then waits (at most
 * {@link KILL_SETTLE_MS}) until no member is. Zombies (exited, waiting to be
 * reaped) do not count as alive. Resolves true when the group has no live
 * member left, false when one survived or the group could not be signalled
 * at all (see {@link signalProcessGroup}).
 *
 * Callers that watch the group's leader may also send SIGKILL themselves
 * once it has exited (`signalProcessGroup(pgid, 'SIGKILL')`): the wait here
 * then ends at the next look.
 */
export async function killProcessGroup(pgid: number, options: KillProcessGroupOptions = {}): Promise<boolean> {
  const graceMs = options.graceMs ?? KILL_GRACE_MS;
  // Nothing signalled: gone already, or not ours to stop (then there is nothing to wait for).
  if (!signalProcessGroup(pgid, 'SIGTERM')) return namesOneGroup(pgid) && !groupHasLiveMembers(pgid);
  if (await settled(pgid, graceMs)) return true;
  signalProcessGroup(pgid, 'SIGKILL');
  return settled(pgid, KILL_SETTLE_MS);
}
