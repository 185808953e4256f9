/**
 * Benchmark entry: `pnpm bench [--json] [--runs N]`. Prints a table (or one
 * JSON object with `--json`). Exits 0 whether or not the target is met; exits
 * 1 when the loader gives a wrong result and 2 on bad arguments.
 */
import { BARE_PARSE_OPTIONS, LoadCheckError, runLoadBenchmark, type LoadBenchmarkResult } from './load-benchmark.js';
import { gcExposed } from './measure.js';
import { parseRunArgs, type RunArgs } from './args.js';

/** Pipeline sizes measured, in stage nodes. */
export const SIZES = [1_000, 10_000] as const;
/** The requirement: orchestra load within this factor of the bare parse (medians)… */
export const TARGET_RATIO = 1.5;
/** …at this size. */
export const TARGET_NODES = 10_000;

const DEFAULT_RUNS = 7;
const WARMUP_RUNS = 3;

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function formatOptions(options: object): string {
  return `{ ${Object.entries(options).map(([key, value]) => `${key}: ${String(value)}`).join(', ')} }`;
}

function timing(median: number, min: number, max: number): string {
  return `${ms(median)} (${ms(min)}–${ms(max)})`;
}

function formatTable(results: readonly LoadBenchmarkResult[], args: RunArgs): string {
  const header = ['nodes', 'size MB', 'bare parse ms', 'orchestra load ms', 'ratio', 'ratio of mins'];
  const rows = results.map((r) => [
    r.nodes.toLocaleString('en-US'),
    (r.sourceBytes / 1e6).toFixed(2),
    timing(r.bareParse.median, r.bareParse.min, r.bareParse.max),
    timing(r.orchestraLoad.median, r.orchestraLoad.min, r.orchestraLoad.max),
    r.ratioMedian.toFixed(2),
    r.ratioMin.toFixed(2),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i < 2 || i > 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  return [
    `orchestra loader benchmark (node ${process.version}, ${args.runs} timed runs of each after ${WARMUP_RUNS} warm-up runs, interleaved; gc before each run: ${gcExposed() ? 'yes' : 'no, --expose-gc not set'})`,
    `  bare parse     = parse(source, ${formatOptions(BARE_PARSE_OPTIONS)}) from ts-graphviz/ast (its default limit of 100,000 AST nodes refuses a 10,000-node file)`,
    '  orchestra load = loadPipeline(source) from @orchestra/core: parse + built-in transforms + all lint rules',
    '  times are median (min–max) in ms; ratio = orchestra load median / bare parse median',
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
  ].join('\n');
}

function main(): number {
  let args: RunArgs;
  try {
    args = parseRunArgs(process.argv.slice(2), DEFAULT_RUNS);
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }

  const results: LoadBenchmarkResult[] = [];
  try {
    for (const nodes of SIZES) {
      console.error(`bench: ${nodes.toLocaleString('en-US')} nodes…`);
      results.push(runLoadBenchmark({ nodes, runs: args.runs, warmupRuns: WARMUP_RUNS }));
    }
  } catch (error) {
    if (error instanceof LoadCheckError) {
      console.error(`bench: ERROR: ${error.message}`);
      return 1;
    }
    throw error;
  }

  const atTarget = results.find((r) => r.nodes === TARGET_NODES);
  const met = atTarget !== undefined && atTarget.ratioMedian <= TARGET_RATIO;
  if (args.json) {
    console.log(
      JSON.stringify({
        benchmark: 'loader',
        node: process.version,
        runs: args.runs,
        warmupRuns: WARMUP_RUNS,
        gcExposed: gcExposed(),
        bareParseOptions: BARE_PARSE_OPTIONS,
        target: { nodes: TARGET_NODES, maxRatio: TARGET_RATIO, ratio: atTarget?.ratioMedian ?? null, met },
        results,
      }),
    );
  } else {
    process.stdout.write(formatTable(results, args));
    const ratio = atTarget ? atTarget.ratioMedian.toFixed(2) : 'n/a';
    console.log(`target: orchestra load ≤ ${TARGET_RATIO}× bare parse (median) at ${TARGET_NODES.toLocaleString('en-US')} nodes — ratio ${ratio}: ${met ? 'met' : 'NOT met'}`);
  }
  return 0;
}

process.exitCode = main();
