/**
 * Workers benchmark: `npx pnpm@10.34.8 --filter @orchestra/bench bench:workers [--runs N] [--workers 1,2,4]
 * [--concurrency K] [--stages N] [--probes N] [--disk-dir DIR] [--no-file] [--json]` (README.md,
 * "Workers benchmark").
 *
 * 1,000 queued simulated runs of a 20-stage chain, executed by 1, 2 and 4
 * `orchestra worker` processes (the real CLI, `--concurrency 4` each) from
 * one PostgreSQL server (fsync on, data directory on the disk), a fresh
 * database per round; beside the same runs driven in one process on the file
 * store. Prints throughput, enqueue → start and time per node. Exits 0 with
 * the table, 1 when a round fails, 2 on bad arguments; the workers and the
 * server are stopped however it ends.
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { postgresBinaries, startPostgres, type PostgresServer } from '@orchestra/testing/postgres';
import { staleBundle } from './cli-bundle.js';
import { onExitCleanup } from './exit-cleanup.js';
import { describeFileSystem } from './store-places.js';
import { parseWorkersArgs, type WorkersArgs } from './workers-args.js';
import { workersChain } from './workers-chain.js';
import { fileRound } from './workers-file-round.js';
import { postgresRound } from './workers-postgres-round.js';
import type { RoundResult } from './workers-summary.js';
import { workersTable } from './workers-table.js';

/** This checkout's root: the bundle runs from packages/bench/dist. */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

let args: WorkersArgs;
try {
  args = parseWorkersArgs(process.argv.slice(2));
} catch (error) {
  console.error(`bench:workers: ${(error as Error).message}`);
  process.exit(2);
}
const progress = (line: string) => process.stderr.write(`${line}\n`);
const stale = staleBundle(ROOT);
if (stale) {
  console.error(`bench:workers: the CLI bundle is out of date (${stale}); run node scripts/build.mjs first (the launcher would compile the sources with tsx instead)`);
  process.exit(1);
}
if (!postgresBinaries()) {
  console.error("bench:workers: PostgreSQL is not installed (no initdb on the PATH or in /usr/lib/postgresql/*/bin): install Debian's postgresql package");
  process.exit(1);
}

const benchStarted = performance.now();
const loadAtStart = loadavg();
const source = workersChain(args.stages);
const nodesEach = args.stages + 2;
const rounds: RoundResult[] = [];
let server: PostgresServer | undefined;
let postgresData: string | undefined;
let unregister = () => {};
try {
  if (!args.noFile) {
    progress(`file store, 1 process, ${args.concurrency} runs at once: ${args.runs} runs of ${args.stages} stages`);
    rounds.push(await fileRound({ parent: args.diskDir, concurrency: args.concurrency, runs: args.runs, probes: args.probes, source, nodesEach, progress }));
  }
  progress(`starting PostgreSQL (fsync on, data directory under ${args.diskDir})`);
  const started = await startPostgres({ fsync: true, parent: args.diskDir });
  server = started;
  postgresData = `${started.dir} (${describeFileSystem(started.dir)})`;
  unregister = onExitCleanup(() => started.dispose());
  for (const workers of args.workers) {
    progress(`PostgreSQL, ${workers} worker process(es) × --concurrency ${args.concurrency}: ${args.runs} runs of ${args.stages} stages`);
    rounds.push(await postgresRound({ server, root: ROOT, workers, concurrency: args.concurrency, runs: args.runs, probes: args.probes, source, nodesEach, progress }));
  }
} catch (error) {
  console.error(`bench:workers: ${(error as Error).stack ?? String(error)}`);
  process.exitCode = 1;
} finally {
  server?.dispose();
  unregister();
}

const context = {
  node: process.version,
  cores: cpus().length,
  loadAtStart,
  loadAtEnd: loadavg(),
  postgresData,
  fileRuns: `${args.diskDir} (${describeFileSystem(args.diskDir)})`,
  totalSeconds: (performance.now() - benchStarted) / 1000,
};
if (args.json) console.log(JSON.stringify({ ...context, args, rounds }));
else if (rounds.length) console.log(workersTable(rounds, args, context).join('\n'));
