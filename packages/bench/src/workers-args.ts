import { tmpdir } from 'node:os';

/** Options of the workers benchmark (`bench:workers`); see {@link parseWorkersArgs}. */
export interface WorkersArgs {
  /** Print one JSON object instead of the table. */
  json: boolean;
  /** Runs queued in each round (1,000). */
  runs: number;
  /** Worker processes of each PostgreSQL round (1, 2, 4). */
  workers: number[];
  /** `--concurrency` of each worker, and the file store's runs at once in its one process (4). */
  concurrency: number;
  /** LLM stages of each run's chain (20). */
  stages: number;
  /** Runs queued one at a time into idle workers after each burst, for the pick-up latency (10; 0 skips). */
  probes: number;
  /** Where the PostgreSQL data directory and the file store's runs go (the OS temp directory: the disk here). */
  diskDir: string;
  /** Skip the file-store baseline. */
  noFile: boolean;
}

function intFlag(argv: readonly string[], flag: string, fallback: number, min: number): number {
  const at = argv.indexOf(flag);
  if (at === -1) return fallback;
  const value = Number(argv[at + 1]?.replace(/_/g, ''));
  if (!Number.isInteger(value) || value < min) throw new RangeError(`${flag} needs a whole number ≥ ${min}, got ${argv[at + 1] ?? 'nothing'}`);
  return value;
}

/**
 * Reads the workers benchmark's flags (after node and script): `--runs N`
 * (runs per round, default 1,000; also `$BENCH_WORKERS_RUNS`), `--workers
 * 1,2,4`, `--concurrency K` (4), `--stages N` (20), `--probes N` (10),
 * `--disk-dir DIR` (the OS temp directory), `--no-file`, `--json`. Throws a
 * `RangeError` on a bad value.
 */
export function parseWorkersArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): WorkersArgs {
  const fromEnv = env.BENCH_WORKERS_RUNS ? Number(env.BENCH_WORKERS_RUNS) : 1_000;
  if (!Number.isInteger(fromEnv) || fromEnv < 1) throw new RangeError(`BENCH_WORKERS_RUNS needs a whole number ≥ 1, got ${env.BENCH_WORKERS_RUNS}`);
  const at = argv.indexOf('--workers');
  let workers = [1, 2, 4];
  if (at !== -1) {
    const text = argv[at + 1] ?? '';
    workers = text.split(',').map(Number);
    if (!text || workers.some((w) => !Number.isInteger(w) || w < 1 || w > 64)) throw new RangeError(`--workers needs a comma-separated list of whole numbers from 1 to 64, got ${text || 'nothing'}`);
  }
  const dirAt = argv.indexOf('--disk-dir');
  const diskDir = dirAt === -1 ? tmpdir() : argv[dirAt + 1];
  if (diskDir === undefined || diskDir.startsWith('--')) throw new RangeError('--disk-dir needs a directory');
  return {
    json: argv.includes('--json'),
    runs: intFlag(argv, '--runs', fromEnv, 1),
    workers,
    concurrency: intFlag(argv, '--concurrency', 4, 1),
    stages: intFlag(argv, '--stages', 20, 1),
    probes: intFlag(argv, '--probes', 10, 0),
    diskDir,
    noFile: argv.includes('--no-file'),
  };
}
