import type { RunStore } from '../engine/store/run-store.js';
import type { RunListing } from './run-catalogue.js';
import { readRunReport } from './run-report.js';

/**
 * What a catalogue's `list` gives for the runs it holds (each id with its
 * store): every run with its report, newest first (by start time, then id);
 * one whose records cannot be read with the reason.
 */
export async function listRuns(runs: Iterable<readonly [string, RunStore]>): Promise<RunListing[]> {
  const out: (RunListing & { started: string })[] = [];
  for (const [id, store] of runs) {
    try {
      const report = await readRunReport(store);
      out.push({ id, report, started: report.manifest.started_at });
    } catch (error) {
      out.push({ id, problem: error instanceof Error ? error.message : String(error), started: '' });
    }
  }
  out.sort((a, b) => b.started.localeCompare(a.started) || b.id.localeCompare(a.id));
  return out.map(({ started: _started, ...listing }) => listing);
}
