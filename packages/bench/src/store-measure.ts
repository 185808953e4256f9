import { summarize, type Stats } from './measure.js';

/** One timed run, per node: wall time, and CPU time in the process (`user`) and in the kernel for it (`system`), all in µs. */
export interface Sample {
  micros: number;
  user: number;
  system: number;
}

/** The timed runs of one case at one size: µs per node. */
export interface CaseResult extends Stats {
  name: string;
  nodes: number;
  /** CPU per node of the median run. */
  cpu: { user: number; system: number };
}

/** One case of a group: `run(nodes)` runs it once at that size. */
export interface AsyncCase {
  name: string;
  run: (nodes: number) => Promise<Sample>;
  /** Length of its warm-up runs (default {@link WARMUP_NODES}); never more than the measured size. */
  warmupNodes?: number;
  /** At most this many warm-up runs (default: as many as asked). */
  maxWarmupRuns?: number;
  /** Runs it untimed for the warm-up, when that should differ from `run` (e.g. on tmpfs for a disk case: the JIT does not care, the slow disk does). */
  warm?: (nodes: number) => Promise<unknown>;
}

/** Warm-up runs are this long at most: enough for the JIT, without a 10,000-node run on a slow disk. */
export const WARMUP_NODES = 1_000;

export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * Times cases at one size, one case after the other: for each, a garbage
 * collection (when `--expose-gc` is on: what the case before left is not
 * paid by this one), `warmup` untimed runs, then `runs` timed runs with no
 * collection in between. A forced collection makes V8 drop and later redo
 * its optimised code (measured: ~100 more functions re-optimised per
 * 1,000-node orchestra run, about twice the CPU), which is an artefact of
 * the benchmark, not a cost of the engine; so collections come only before
 * a warm-up, and the warm-up is long enough for the JIT to settle (2
 * warm-up runs of 1,000 nodes left a 1,000-node MemoryRunStore run at
 * ~70 µs/node, 12 at ~25).
 */
export async function measureGroup(cases: readonly AsyncCase[], nodes: number, warmup: number, runs: number, progress: (line: string) => void): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    collectGarbage();
    const warm = c.warm ?? c.run;
    for (let w = 0; w < Math.min(warmup, c.maxWarmupRuns ?? warmup); w++) await warm(Math.min(nodes, c.warmupNodes ?? WARMUP_NODES));
    const samples: Sample[] = [];
    for (let round = 0; round < runs; round++) {
      const sample = await c.run(nodes);
      samples.push(sample);
      progress(`  ${c.name} ${nodes.toLocaleString('en-US')} nodes, run ${round + 1}/${runs}: ${sample.micros.toFixed(1)} µs/node`);
    }
    const mid = [...samples].sort((a, b) => a.micros - b.micros)[samples.length >> 1] as Sample;
    results.push({ name: c.name, nodes, ...summarize(samples.map((s) => s.micros)), cpu: { user: mid.user, system: mid.system } });
  }
  return results;
}
