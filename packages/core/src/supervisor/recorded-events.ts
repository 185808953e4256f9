import { isHolderAlive } from '../os/process-identity.js';
import type { RunStore } from '../engine/store/run-store.js';
import { RunEventLog } from './run-event-log.js';

/** How often the events of a run another process drives are read for new ones. */
export const FOLLOW_INTERVAL_MS = 250;

/** How often they are read anyway when the store announces new events (`watchEvents`): for the owner's end, and a missed notice. */
export const WATCHED_FOLLOW_INTERVAL_MS = 2000;

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
  let again = false;
  let stopWatching: (() => void) | undefined;
  const stop = (): void => {
    clearInterval(timer);
    stopWatching?.();
    log.end();
  };
  const read = (checkOwner: boolean): void => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    void (async () => {
      try {
        const lines = await store.readEvents();
        if (lines.length > log.size) log.pushLines(lines.slice(log.size));
        if (checkOwner || !store.watchEvents) {
          const holder = await store.leaseHolder();
          if (log.followers === 0 || !holder || !isHolderAlive(holder)) stop();
        }
      } catch {
        stop();
      } finally {
        reading = false;
        if (again && !log.ended) {
          again = false;
          read(false);
        }
      }
    })();
  };
  const timer = setInterval(() => read(true), store.watchEvents ? WATCHED_FOLLOW_INTERVAL_MS : FOLLOW_INTERVAL_MS);
  timer.unref();
  if (store.watchEvents) {
    try {
      stopWatching = await store.watchEvents(() => read(false));
      if (log.ended) stopWatching();
    } catch {
      // no notifications: the timer reads them
    }
  }
  return log;
}
