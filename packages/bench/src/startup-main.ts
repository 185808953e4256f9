/**
 * Start-up benchmark entry: `pnpm --filter @orchestra/bench bench:startup [--json] [--runs N] [--base DIR]`.
 * Spawns the CLI: `validate` and `run --simulate` (beside `node -e 0`, also
 * with this shell's NODE_EXTRA_CA_CERTS when set, and
 * against the previous version when a build of it exists, by default in
 * /tmp/base), and `run --model` against the scripted server (time to the
 * first request); then proves which of them load LangChain. Exits 0 whether
 * or not the targets are met, 1 when a command fails, 2 on bad arguments.
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { findBase, runStartupBenchmark, StartupCheckError, STARTUP_FIXTURES, type LoadSummary, type StartupResult } from './startup-benchmark.js';

/** The requirement: a run with a model sends its first request within this many ms of being started. */
export const TARGET_FIRST_REQUEST_MS = 400;
/** `validate` and `run --simulate` count as unchanged when new / old (medians) stays within this factor. */
export const UNCHANGED_RATIO = 1.1;
/** The requirement (issue 22): `validate` of a small pipeline within this factor of `node -e 0`, whole processes, medians. */
export const TARGET_OVER_FLOOR = 1.5;
/** Where the previous version's checkout is looked for unless `--base` says otherwise. */
export const DEFAULT_BASE = '/tmp/base';
const DEFAULT_RUNS = 10;
const WARMUP_RUNS = 2;

/** This checkout's root: the bundle runs from packages/bench/dist, the sources from packages/bench/src. */
const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** Whether each target is met (`unchanged` is null without a previous version to compare with). */
export interface StartupVerdicts {
  firstRequest: boolean;
  /** validate / node -e 0 ≤ {@link TARGET_OVER_FLOOR}, in the benchmark's environment (only PATH and HOME). */
  overFloor: boolean;
  noLangChain: boolean;
  unchanged: boolean | null;
}

function verdicts(r: StartupResult): StartupVerdicts {
  const noLangChain = !r.loads.validate.langchain && !r.loads.simulate.langchain;
  return {
    firstRequest: r.times.modelFirstRequest.median <= TARGET_FIRST_REQUEST_MS,
    overFloor: r.overFloor.validate.median <= TARGET_OVER_FLOOR,
    noLangChain,
    unchanged: r.ratios ? noLangChain && r.ratios.validate.median <= UNCHANGED_RATIO && r.ratios.simulate.median <= UNCHANGED_RATIO : null,
  };
}

function loadsLine(name: string, l: LoadSummary | undefined): string {
  if (!l) return `    ${name.padEnd(24)} not run`;
  return `    ${name.padEnd(24)} ${String(l.files).padStart(3)} module files, bundle: ${l.bundle ? 'yes' : 'NO'}, LangChain loaded: ${l.langchain ? `yes (${l.langchainFiles.join(', ')})` : 'no'}`;
}

function printTable(r: StartupResult, load: { before: number; after: number }, base: string): void {
  const t = r.times;
  const v = verdicts(r);
  const row = (name: string, s: { median: number; min: number; max: number } | undefined) => console.log(`    ${name.padEnd(44)} ${s ? formatSpread(s) : 'n/a'}`);
  console.log(`orchestra start-up benchmark (node ${process.version}; ${r.runs} timed runs of each command after ${r.warmupRuns} warm-up rounds, round-robin; ms from spawn, median (min–max))`);
  console.log(`  checkout ${ROOT}; previous version: ${r.baseRoot ?? `none found at ${base} (comparison skipped)`}`);
  console.log(`  load average (1 min) before ${load.before.toFixed(2)}, after ${load.after.toFixed(2)} on ${cpus().length} CPUs: other work on the machine shows up as noise`);
  console.log('');
  const overFloor = (x: { median: number; min: number }) => `×${x.median.toFixed(2)} (mins ×${x.min.toFixed(2)})`;
  row('node -e 0', t.nodeBare);
  row(`validate ${STARTUP_FIXTURES.validate}`, t.validate);
  console.log(`    ${'  ÷ node -e 0'.padEnd(44)} ${overFloor(r.overFloor.validate)}`);
  if (r.baseRoot) row('  previous version', t.baseValidate);
  if (t.nodeBareCerts && t.validateCerts && r.overFloor.validateCerts) {
    console.log(`    with NODE_EXTRA_CA_CERTS=${r.extraCaCerts} (node reads it at every start):`);
    row('  node -e 0', t.nodeBareCerts);
    row(`  validate ${STARTUP_FIXTURES.validate}`, t.validateCerts);
    console.log(`    ${'    ÷ node -e 0'.padEnd(44)} ${overFloor(r.overFloor.validateCerts)}`);
  }
  row(`run ${STARTUP_FIXTURES.branching} --simulate`, t.simulate);
  if (r.baseRoot) row('  previous version', t.baseSimulate);
  console.log(`    run ${STARTUP_FIXTURES.model} --model bench-model:`);
  row('  spawn → first chat-completion request', t.modelFirstRequest);
  row('  spawn → exit (3 stages, scripted server)', t.modelTotal);
  if (r.ratios) {
    console.log('');
    console.log(`    new / old: validate ×${r.ratios.validate.median.toFixed(2)} (mins ×${r.ratios.validate.min.toFixed(2)}), run --simulate ×${r.ratios.simulate.median.toFixed(2)} (mins ×${r.ratios.simulate.min.toFixed(2)})`);
  }
  console.log('');
  console.log('  script files run (one more run of each, with V8\'s coverage report, NODE_V8_COVERAGE; LangChain = a file under @langchain/ or containing "ChatOpenAI")');
  console.log(loadsLine('validate', r.loads.validate));
  console.log(loadsLine('run --simulate', r.loads.simulate));
  console.log(loadsLine('run --model (control)', r.loads.model));
  if (r.baseRoot) {
    console.log(loadsLine('previous validate', r.loads.baseValidate));
    console.log(loadsLine('previous run --simulate', r.loads.baseSimulate));
  }
  console.log('');
  console.log(`  target: validate ${STARTUP_FIXTURES.validate} within ×${TARGET_OVER_FLOOR} of node -e 0 (medians, only PATH and HOME set) — ${v.overFloor ? 'met' : 'NOT met'}`);
  console.log(`  target: run --model reaches the server within ${TARGET_FIRST_REQUEST_MS} ms (median) — ${v.firstRequest ? 'met' : 'NOT met'}`);
  console.log(`  target: validate and run --simulate load no LangChain — ${v.noLangChain ? 'met' : 'NOT met'}`);
  console.log(
    `  target: validate and run --simulate unchanged (no LangChain, new/old ≤ ×${UNCHANGED_RATIO}) — ${v.unchanged === null ? 'not compared (no previous version)' : v.unchanged ? 'met' : 'NOT met'}`,
  );
}

function baseArg(argv: readonly string[]): string {
  const at = argv.indexOf('--base');
  if (at === -1) return DEFAULT_BASE;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new RangeError('--base needs a directory');
  return value;
}

async function main(): Promise<number> {
  let args: RunArgs;
  let base: string;
  try {
    args = parseRunArgs(process.argv.slice(2), DEFAULT_RUNS);
    base = baseArg(process.argv.slice(2));
  } catch (error) {
    console.error(`bench:startup: ${(error as Error).message}`);
    return 2;
  }
  const baseRoot = findBase(base);
  let result: StartupResult;
  const before = loadavg()[0] ?? 0;
  try {
    const extraCaCerts = process.env['NODE_EXTRA_CA_CERTS'];
    result = await runStartupBenchmark({
      root: ROOT,
      ...(baseRoot ? { baseRoot } : {}),
      ...(extraCaCerts ? { extraCaCerts } : {}),
      runs: args.runs,
      warmupRuns: WARMUP_RUNS,
      progress: (line) => console.error(line),
    });
  } catch (error) {
    if (error instanceof StartupCheckError) {
      console.error(`bench:startup: ERROR: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const load = { before, after: loadavg()[0] ?? 0 };
  if (args.json) {
    console.log(
      JSON.stringify({
        benchmark: 'startup',
        node: process.version,
        root: ROOT,
        ...result,
        targets: { firstRequestMs: TARGET_FIRST_REQUEST_MS, unchangedRatio: UNCHANGED_RATIO, overFloor: TARGET_OVER_FLOOR },
        verdicts: verdicts(result),
        loadAverage: load,
      }),
    );
  } else {
    printTable(result, load, base);
  }
  return 0;
}

process.exitCode = await main();
