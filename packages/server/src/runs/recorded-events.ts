import { FileRunStore, isProcessAlive } from '@orchestra/core';
import { RunEventLog } from './run-event-log.js';

/** How often the events file of a run another process drives is read for new lines. */
export const FOLLOW_INTERVAL_MS = 250;

/**
 * The events of a run this server does not drive, from its `events.jsonl`.
 * With `live` (another process drives it), new lines are read every
 * {@link FOLLOW_INTERVAL_MS} until that process lets the run go; otherwise
 * the log has ended. Reading stops once nobody follows the log.
 */
export function followRecordedEvents(dir: string, live: boolean): RunEventLog {
  const store = new FileRunStore(dir);
  const log = new RunEventLog(store.readEvents());
  if (!live) {
    log.end();
    return log;
  }
  const timer = setInterval(() => {
    try {
      const lines = store.readEvents();
      if (lines.length > log.size) log.pushLines(lines.slice(log.size));
      const holder = store.leaseHolder();
      if (log.followers === 0 || !holder || !isProcessAlive(holder.pid, holder.start_time, holder.host)) {
        clearInterval(timer);
        log.end();
      }
    } catch {
      clearInterval(timer);
      log.end();
    }
  }, FOLLOW_INTERVAL_MS);
  timer.unref();
  return log;
}
