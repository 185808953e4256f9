import { tmpdir } from 'node:os';
import { parseRunArgs, type RunArgs } from './args.js';

/** Options of the store benchmark (`bench:store`); see {@link parseStoreArgs}. */
export interface StoreArgs extends RunArgs {
  /** Chain lengths orchestra runs (and the floor is measured at). */
  sizes: number[];
  /** Chain lengths LangGraph actually runs; other sizes are extrapolated from the two largest of these. */
  langgraphSizes: number[];
  /** Skip LangGraph's SQLite checkpointer (and its on-demand install). */
  noSqlite: boolean;
  /** Skip LangGraph altogether. */
  noLanggraph: boolean;
  /** Chain length of the peak-RSS runs (0: skip them). */
  scaleNodes: number;
  /** Fan-out widths (0 entries: skip). */
  fanout: number[];
  /** Where the fan-out's run directories go: `tmpfs` or `disk`. */
  fanoutPlace: 'tmpfs' | 'disk';
  /** Parent directory of the "project disk" runs. */
  diskDir: string;
  /** Untimed runs of each case before timing. */
  warmup: number;
  /** Also run orchestra + FileRunStore with `syncEveryNode` (an fsync per node, as SQLite's `synchronous=FULL` commits). */
  syncEveryNode: boolean;
  /** Skip PostgreSQL beside the file store (`--no-postgres`). */
  noPostgres: boolean;
  /** Run only PostgreSQL beside the file store (`--postgres-only`). */
  postgresOnly: boolean;
  /** Stages of the chain PostgreSQL and the file store run (`--postgres-nodes`, 1,000). */
  postgresNodes: number;
}

/** Default timed runs per case. */
export const DEFAULT_STORE_RUNS = 3;

function numberList(argv: readonly string[], flag: string, fallback: number[]): number[] {
  const at = argv.indexOf(flag);
  if (at === -1) return fallback;
  const value = argv[at + 1];
  if (value === undefined || value === '' || value.startsWith('--')) throw new RangeError(`${flag} needs a comma-separated list of positive integers (or 0 for none), got ${value ?? 'nothing'}`);
  const list = value.split(',').map((v) => Number(v.replace(/_/g, '')));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) throw new RangeError(`${flag} needs positive integers, got ${value}`);
  return list.filter((n) => n > 0);
}

function stringFlag(argv: readonly string[], flag: string): string | undefined {
  const at = argv.indexOf(flag);
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new RangeError(`${flag} needs a value`);
  return value;
}

/**
 * Reads the store benchmark's flags (after node and script): `--json`,
 * `--runs N` (timed runs per case, default 3), `--warmup N` (default 10),
 * `--sizes 1000,10000`, `--langgraph-sizes 500,1000`, `--no-sqlite`,
 * `--no-langgraph`, `--scale-nodes 100000` (0 skips), `--fanout 1000,10000`
 * (0 skips), `--fanout-on tmpfs|disk`, `--disk-dir DIR` (default the OS temp
 * directory), `--sync-every-node`, `--no-postgres`, `--postgres-only`,
 * `--postgres-nodes 1000`. Throws a `RangeError` on a bad value.
 */
export function parseStoreArgs(argv: readonly string[]): StoreArgs {
  const base = parseRunArgs(argv, DEFAULT_STORE_RUNS);
  const warmup = numberList(argv, '--warmup', [10]);
  const scale = numberList(argv, '--scale-nodes', [100_000]);
  const fanoutPlace = stringFlag(argv, '--fanout-on') ?? 'tmpfs';
  if (fanoutPlace !== 'tmpfs' && fanoutPlace !== 'disk') throw new RangeError(`--fanout-on takes tmpfs or disk, got ${fanoutPlace}`);
  const sizes = numberList(argv, '--sizes', [1_000, 10_000]);
  if (sizes.length === 0) throw new RangeError('--sizes needs at least one size');
  const postgresNodes = numberList(argv, '--postgres-nodes', [1_000])[0];
  if (postgresNodes === undefined) throw new RangeError('--postgres-nodes needs a positive integer');
  if (argv.includes('--no-postgres') && argv.includes('--postgres-only')) throw new RangeError('--no-postgres and --postgres-only exclude each other');
  return {
    ...base,
    sizes,
    langgraphSizes: numberList(argv, '--langgraph-sizes', [500, 1_000]),
    noSqlite: argv.includes('--no-sqlite'),
    noLanggraph: argv.includes('--no-langgraph'),
    scaleNodes: scale[0] ?? 0,
    fanout: numberList(argv, '--fanout', [1_000, 10_000]),
    fanoutPlace,
    diskDir: stringFlag(argv, '--disk-dir') ?? tmpdir(),
    warmup: warmup[0] ?? 0,
    syncEveryNode: argv.includes('--sync-every-node'),
    noPostgres: argv.includes('--no-postgres'),
    postgresOnly: argv.includes('--postgres-only'),
    postgresNodes,
  };
}
