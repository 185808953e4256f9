import { isHolderAlive } from '../os/process-identity.js';
import type { RunStore } from '../engine/store/run-store.js';
import { RunEventLog } from './run-event-log.js';

/** How often the events of a run another process drives are read for new ones. */
export const FOLLOW_INTERVAL_MS = 250;

/**
 * The events of a run this process does not drive, read from its store.
 * With `live` (another process drives it), new events are read every
 * {@link FOLLOW_INTERVAL_MS} until that process lets the run go; otherwise
 * the log has ended. Reading stops once nobody follows the log.
 */
export async function followRecordedEvents(store: RunStore, live: boolean): Promise<RunEventLog> {
  const log = new RunEventLog(await store.readEvents());
  if (!live) {
    log.end();
    return log;
  }
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    void (async () => {
      try {
        const lines = await store.readEvents();
        if (lines.length > log.size) log.pushLines(lines.slice(log.size));
        const holder = await store.leaseHolder();
        if (log.followers === 0 || !holder || !isHolderAlive(holder)) {
          clearInterval(timer);
          log.end();
        }
      } catch {
        clearInterval(timer);
        log.end();
      } finally {
        reading = false;
      }
    })();
  }, FOLLOW_INTERVAL_MS);
  timer.unref();
  return log;
}
