import type { RunStore } from '../engine/store/run-store.js';
import type { RunListing } from './run-catalogue.js';
import { readRunReport } from './run-report.js';

/** How many runs' reports are read at once (a database store answers them over several connections). */
export const LIST_CONCURRENCY = 8;

/**
 * What a catalogue's `list` gives for the runs it holds (each id with its
 * store): every run with its report, newest first (by start time, then id);
 * one whose records cannot be read with the reason. Reports are read
 * {@link LIST_CONCURRENCY} at a time.
 */
export async function listRuns(runs: Iterable<readonly [string, RunStore]>): Promise<RunListing[]> {
  const all = [...runs];
  const out: (RunListing & { started: string })[] = new Array(all.length);
  let next = 0;
  const reader = async (): Promise<void> => {
    for (let i = next++; i < all.length; i = next++) {
      const [id, store] = all[i] as readonly [string, RunStore];
      try {
        const report = await readRunReport(store);
        out[i] = { id, report, started: report.manifest.started_at };
      } catch (error) {
        out[i] = { id, problem: error instanceof Error ? error.message : String(error), started: '' };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LIST_CONCURRENCY, all.length) }, reader));
  out.sort((a, b) => b.started.localeCompare(a.started) || b.id.localeCompare(a.id));
  return out.map(({ started: _started, ...listing }) => listing);
}
