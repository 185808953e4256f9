/**
 * LLM benchmark entry: `pnpm --filter @orchestra/bench bench:llm [--json] [--runs N]`.
 * Orchestra's added cost per LLM stage against a bare `ChatOpenAI` loop, both
 * talking to the scripted server in this process. Exits 0 whether or not the
 * target is met, 1 when a run goes wrong, 2 on bad arguments.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { REPLY_CHUNKS, LlmCheckError } from './llm-cases.js';
import { runLlmBenchmark, type LlmBenchmarkResult, type LlmPlaceResult } from './llm-benchmark.js';

/** The requirement: orchestra adds at most this many ms per stage to the bare client's time. */
export const TARGET_ADDED_MS_PER_STAGE = 2;
/** Stages of the pipeline (calls of the bare loop). */
export const STAGES = 50;
const DEFAULT_RUNS = 5;
const WARMUP_RUNS = 2;

/** The 1-minute load average before and after the benchmark. */
interface LoadAverages {
  before: number;
  after: number;
}

function met(place: LlmPlaceResult): boolean {
  return place.addedMedian <= TARGET_ADDED_MS_PER_STAGE;
}

function printTable(result: LlmBenchmarkResult, load: LoadAverages): void {
  const ms = (v: number) => v.toFixed(2);
  console.log(
    `orchestra LLM stage benchmark (node ${process.version}; ${result.stages}-stage linear pipeline vs ${result.stages} bare ChatOpenAI.stream() calls, scripted server in-process, reply in ${REPLY_CHUNKS} chunks without delays; ${result.warmupRuns} warm-up runs, then ${result.runs} timed runs of each, alternating)`,
  );
  console.log('  A orchestra = runPipeline(graph, { backend: createModelBackend(...) }): prompt.md, preamble.md, response.md, status.json, journal and checkpoint per run');
  console.log(`  B bare      = one new ChatOpenAI, ${result.stages} sequential .stream() calls replaying the messages A sent (system ${result.systemChars.first}–${result.systemChars.last} chars, prompt)`);
  console.log(`  T traced    = A with tracing on: createRunTracing over the SDK, a batching processor and the OTLP/HTTP protobuf exporter, as orchestra run sets them up, to an OTLP receiver in this process; ${result.spansPerTracedRun} spans a run, checked; the provider shut down (last spans sent) inside the timing`);
  console.log('  A is tracing off: the code path of a run nobody traces (no observer; the SDK is not loaded)');
  console.log('  times: ms per stage, median (min–max); added = (median A − median B) / stage, spread over the per-round pairs');
  console.log(`  load average (1 min) before ${load.before.toFixed(2)}, after ${load.after.toFixed(2)} on ${cpus().length} CPUs: other work on the machine shows up as noise`);
  for (const p of result.places) {
    console.log('');
    console.log(`  run directory on ${p.place} (${p.dir})`);
    console.log(`    A orchestra          ${formatSpread(p.orchestra, 2)}   CPU user ${ms(p.cpu.orchestra.user)}, system ${ms(p.cpu.orchestra.system)}`);
    console.log(`    B bare ChatOpenAI    ${formatSpread(p.bare, 2)}   CPU user ${ms(p.cpu.bare.user)}, system ${ms(p.cpu.bare.system)}`);
    console.log(`    added A − B          ${ms(p.addedMedian)} (per round ${ms(p.addedPerRound.min)}–${ms(p.addedPerRound.max)}; of the fastest runs ${ms(p.addedMin)})`);
    console.log(`    file-creation floor  ${formatSpread(p.fileFloor, 2)}   (mkdir + 4 small files per stage, fresh directory)`);
    console.log(`    added − floor        ${ms(p.addedMinusFloor)}`);
    console.log(`    target: added ≤ ${TARGET_ADDED_MS_PER_STAGE} ms/stage — ${met(p) ? 'met' : 'NOT met'}`);
    console.log(`    T traced (A, tracing on) ${formatSpread(p.traced, 2)}`);
    console.log(`    tracing on − off     ${ms(p.tracingAddedMedian)} per model call (per round ${ms(p.tracingAddedPerRound.min)}–${ms(p.tracingAddedPerRound.max)})`);
  }
}

async function main(): Promise<number> {
  let args: RunArgs;
  try {
    args = parseRunArgs(process.argv.slice(2), DEFAULT_RUNS);
  } catch (error) {
    console.error(`bench:llm: ${(error as Error).message}`);
    return 2;
  }
  const places = [{ name: 'disk', dir: tmpdir() }, ...(existsSync('/dev/shm') ? [{ name: 'memory (/dev/shm)', dir: '/dev/shm' }] : [])];
  let result: LlmBenchmarkResult;
  const before = loadavg()[0] ?? 0;
  try {
    result = await runLlmBenchmark({ stages: STAGES, runs: args.runs, warmupRuns: WARMUP_RUNS, places, progress: (line) => console.error(line) });
  } catch (error) {
    if (error instanceof LlmCheckError) {
      console.error(`bench:llm: ERROR: ${error.message}`);
      return 1;
    }
    throw error;
  }
  const load = { before, after: loadavg()[0] ?? 0 };
  if (args.json) {
    console.log(
      JSON.stringify({
        benchmark: 'llm',
        node: process.version,
        ...result,
        places: result.places.map((p) => ({ ...p, met: met(p) })),
        target: { maxAddedMsPerStage: TARGET_ADDED_MS_PER_STAGE },
        loadAverage: load,
      }),
    );
  } else {
    printTable(result, load);
  }
  return 0;
}

process.exitCode = await main();
