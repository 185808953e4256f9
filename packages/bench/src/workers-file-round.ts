import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { FileRunCatalogue, RunSupervisor } from '@orchestra/core';
import { readRunTimings, type Submitted } from './run-timings.js';
import { checkCompleted, summarizeRound, type RoundResult } from './workers-summary.js';

/** Options of {@link fileRound}. */
export interface FileRoundOptions {
  /** Where the catalogue's directory goes (the disk, as the PostgreSQL data directory). */
  parent: string;
  /** Runs driven at once. */
  concurrency: number;
  runs: number;
  probes: number;
  source: string;
  nodesEach: number;
  progress: (line: string) => void;
}

/**
 * The baseline: the same runs driven in this one process on the file store,
 * a `RunSupervisor` over a `FileRunCatalogue` in a fresh directory under
 * `parent`. All `runs` are handed at once to an in-process queue that
 * `concurrency` slots take from in order (`supervisor.start`, then the run's
 * end, then the next); each run counts as asked for at that moment, as the
 * burst of a PostgreSQL round queues its runs. Then `probes` runs one at a
 * time. The directory is removed afterwards.
 */
export async function fileRound(o: FileRoundOptions): Promise<RoundResult> {
  const dir = mkdtempSync(join(o.parent, 'orchestra-workers-bench-'));
  try {
    const catalogue = new FileRunCatalogue(dir);
    const supervisor = new RunSupervisor({ catalogue });
    const drive = async (): Promise<string> => {
      const run = await supervisor.start({ source: o.source, options: { simulate: true } });
      const result = await run.done;
      if (result.status !== 'success') throw new Error(`file store run ${run.id} ended ${result.status}${result.failureReason ? `: ${result.failureReason}` : ''}`);
      return run.id;
    };
    const burst: Submitted[] = new Array(o.runs);
    const enqueuedAt = Date.now();
    let next = 0;
    const slot = async () => {
      for (let i = next++; i < o.runs; i = next++) {
        burst[i] = { id: await drive(), enqueuedAt };
        if ((i + 1) % 200 === 0) o.progress(`  file store: ${i + 1}/${o.runs} runs ended`);
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, slot));
    const probes: Submitted[] = [];
    for (let i = 0; i < o.probes; i++) {
      const at = Date.now();
      probes.push({ id: await drive(), enqueuedAt: at });
    }
    const burstTimings = await readRunTimings(catalogue, burst);
    const probeTimings = await readRunTimings(catalogue, probes);
    const label = 'file store, 1 process';
    checkCompleted(label, [...burstTimings, ...probeTimings], o.nodesEach);
    return summarizeRound({ label, processes: 1, concurrency: o.concurrency }, burstTimings, probeTimings);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
