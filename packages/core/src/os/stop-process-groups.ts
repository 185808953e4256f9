import { setTimeout as sleep } from 'node:timers/promises';
import { groupHasLiveMembers, hostName, procStat } from './process-identity.js';

/** A process group to stop: its id (the leader's PID), the leader's start time when known, and its host. */
export interface ProcessGroupRef {
  pgid: number;
  start_time: string | null;
  host: string;
}

/** A group with a member still running (zombies, exited but not reaped, do not count). */
const groupExists = groupHasLiveMembers;

/**
 * True when the group is still the one recorded: its leader runs with the
 * recorded start time, or the leader has exited and members remain (Linux
 * does not reuse a PID while a group carries it). A PID reused by an
 * unrelated process (another start time) is never the recorded group.
 */
export function isSameGroup(ref: ProcessGroupRef): boolean {
  if (ref.host !== hostName() || !groupExists(ref.pgid)) return false;
  const leader = procStat(ref.pgid);
  if (leader === undefined || leader.state === 'Z') return true; // the leader exited; members of its group remain
  return ref.start_time === null || leader.startTime === ref.start_time;
}

/**
 * Stops the recorded groups that still run (SIGTERM, then SIGKILL after
 * `graceMs`); returns those it stopped. Groups on another host, gone, or
 * whose PID now belongs to another process are left alone.
 */
export async function stopProcessGroups<T extends ProcessGroupRef>(groups: readonly T[], graceMs = 2000): Promise<T[]> {
  const live = groups.filter(isSameGroup);
  for (const group of live) signalGroup(group.pgid, 'SIGTERM');
  const deadline = performance.now() + graceMs;
  while (live.some((g) => groupExists(g.pgid)) && performance.now() < deadline) await sleep(20);
  for (const group of live) if (groupExists(group.pgid)) signalGroup(group.pgid, 'SIGKILL');
  while (live.some((g) => groupExists(g.pgid)) && performance.now() < deadline + 1000) await sleep(10);
  return live;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // gone
  }
}
