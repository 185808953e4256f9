/** Summary of the timed runs of one case, in milliseconds. */
export interface Stats {
  /** Median of the timed runs (the mean of the middle two for an even count). */
  median: number;
  /** Fastest timed run. */
  min: number;
  /** Slowest timed run. */
  max: number;
  /** Every timed run, in the order they ran. */
  samples: number[];
}

/** One thing to time: `run` is timed, `verify` (if any) checks its result outside the timing. */
export interface BenchCase<T> {
  /** Label for reports. */
  name: string;
  /** The work to time. Its result is handed to `verify`. */
  run: () => T;
  /** Called after every run, warm-up included, outside the timed region; throw to abort. */
  verify?: (result: T) => void;
}

/** Options of {@link measureInterleaved}. */
export interface MeasureOptions {
  /** Untimed runs of each case before timing starts (default 3). */
  warmupRuns?: number;
  /** Timed runs of each case (default 7). */
  runs?: number;
}

/** The timings of one case, in the order the cases were given. */
export interface CaseStats extends Stats {
  name: string;
}

/** True when the process runs with `--expose-gc`, so {@link measureInterleaved} collects garbage before each run. */
export function gcExposed(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc === 'function') gc();
}

/** Median, min and max of a non-empty list of timings. */
export function summarize(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new RangeError('summarize needs at least one sample');
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, samples: [...samples] };
}

/**
 * Times several cases side by side: warm-up runs first, then timed runs in
 * rounds, one run of every case per round, so drift (thermal, JIT, other
 * load) hits all cases alike. The order within a round alternates (A B, then
 * B A) so no case always runs right after another. When `global.gc` is
 * exposed, garbage is collected before every run; it is not required.
 */
export function measureInterleaved<R extends unknown[]>(
  cases: { [K in keyof R]: BenchCase<R[K]> },
  options: MeasureOptions = {},
): CaseStats[] {
  const { warmupRuns = 3, runs = 7 } = options;
  if (!Number.isInteger(runs) || runs < 1) throw new RangeError(`runs must be a positive integer, got ${runs}`);
  if (!Number.isInteger(warmupRuns) || warmupRuns < 0) throw new RangeError(`warmupRuns must be a non-negative integer, got ${warmupRuns}`);
  const list = cases as readonly BenchCase<unknown>[];
  const samples: number[][] = list.map(() => []);

  const once = (index: number): number => {
    const c = list[index]!;
    collectGarbage();
    const start = performance.now();
    const result = c.run();
    const elapsed = performance.now() - start;
    c.verify?.(result);
    return elapsed;
  };

  for (let round = 0; round < warmupRuns; round++) {
    for (let i = 0; i < list.length; i++) once(i);
  }
  for (let round = 0; round < runs; round++) {
    const order = list.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) samples[i]!.push(once(i));
  }
  return list.map((c, i) => ({ name: c.name, ...summarize(samples[i]!) }));
}
