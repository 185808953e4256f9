import { signalProcessGroup } from '../os/kill-process-group.js';

/** Process groups of commands still running (tool nodes, agent commands, hooks, CLI agents). */
const running = new Set<number>();

/**
 * Records a process group started on a run's behalf (a child spawned with
 * `detached: true` leads its own group), so {@link killRunningTools} can
 * stop it. Returns the function that forgets it once it has exited.
 */
export function trackProcessGroup(pid: number): () => void {
  running.add(pid);
  return () => {
    running.delete(pid);
  };
}

/**
 * Kills every command still running on a run's behalf (SIGKILL to each
 * process group): for a process about to exit without waiting for its run
 * to stop.
 */
export function killRunningTools(): void {
  for (const pid of running) signalProcessGroup(pid, 'SIGKILL');
  running.clear();
}
