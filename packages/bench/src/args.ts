/** Command-line options shared by the LLM and start-up benchmarks. */
export interface RunArgs {
  /** Print one JSON object instead of a table. */
  json: boolean;
  /** Timed runs of each case. */
  runs: number;
}

/**
 * Reads `--json` and `--runs N` from `argv` (without node and script);
 * `defaultRuns` when `--runs` is absent. Throws a `RangeError` on a bad `--runs`.
 */
export function parseRunArgs(argv: readonly string[], defaultRuns: number): RunArgs {
  const json = argv.includes('--json');
  let runs = defaultRuns;
  const at = argv.indexOf('--runs');
  if (at !== -1) {
    const value = argv[at + 1];
    runs = Number(value);
    if (value === undefined || !Number.isInteger(runs) || runs < 1) {
      throw new RangeError(`--runs needs a positive integer, got ${value ?? 'nothing'}`);
    }
  }
  return { json, runs };
}

/** `median (min–max)` of timings, with one decimal below 100 (and `digits` decimals when given). */
export function formatSpread(stats: { median: number; min: number; max: number }, digits?: number): string {
  const f = (v: number) => (digits !== undefined ? v.toFixed(digits) : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1));
  return `${f(stats.median)} (${f(stats.min)}–${f(stats.max)})`;
}
