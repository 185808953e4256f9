import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseMessage } from '@langchain/core/messages';
import { loadPipeline, type Graph } from '@orchestra/core';
import { generateLinearPipeline, startOtlpReceiver, startScriptedOpenAIServer, type OtlpReceiver, type ScriptedOpenAIServer } from '@orchestra/testing';
import { timeFileCreation } from './file-floor.js';
import { BENCH_MODEL, LlmCheckError, benchReply, checkSameRequests, runBareCase, runOrchestraCase, toLangChain, type LlmSample } from './llm-cases.js';
import { benchTracing } from './llm-tracing.js';
import { summarize, type Stats } from './measure.js';

/** A file system the run directory is put on. */
export interface Place {
  /** Label for reports, e.g. `disk` or `memory (/dev/shm)`. */
  name: string;
  /** Parent directory of the run directories. */
  dir: string;
}

/** Options of {@link runLlmBenchmark}. */
export interface LlmBenchmarkOptions {
  /** LLM stages in the linear pipeline (and calls in the bare loop). */
  stages: number;
  /** Timed runs of each case per place. */
  runs: number;
  /** Untimed runs of each case per place first. */
  warmupRuns: number;
  places: readonly Place[];
  /** Progress lines (stderr). */
  progress?: (line: string) => void;
}

/** The figures for one place; every time is in ms per stage. */
export interface LlmPlaceResult {
  place: string;
  dir: string;
  /** Case A: `runPipeline` over the model backend. */
  orchestra: Stats;
  /** Case B: the bare `ChatOpenAI` loop. */
  bare: Stats;
  /** Added cost: (median A − median B) / stages… */
  addedMedian: number;
  /** …and the same per round, (A − B) / stages of each pair of runs (their min and max give the spread)… */
  addedPerRound: Stats;
  /** …and of the fastest runs, min A − min B: a view less sensitive to other load on the machine. */
  addedMin: number;
  /** CPU (user, system) per stage of each case's median run, ms; the scripted server runs in this process too. */
  cpu: { orchestra: { user: number; system: number }; bare: { user: number; system: number } };
  /** Creating a directory and 4 small files, per stage, measured once per round. */
  fileFloor: Stats;
  /** addedMedian − fileFloor.median: the cost left once the file system's is taken out. */
  addedMinusFloor: number;
  /** Case T: case A with tracing on (spans of the run, its stages and its model calls sent to an OTLP receiver in this process). */
  traced: Stats;
  /** What tracing adds per stage, one model call each: median T − median A… */
  tracingAddedMedian: number;
  /** …and per round, (T − A) / stages of each pair of runs. */
  tracingAddedPerRound: Stats;
}

/** The whole benchmark's result. */
export interface LlmBenchmarkResult {
  stages: number;
  runs: number;
  warmupRuns: number;
  /** Characters of the system message orchestra sent, first and last stage (the bare loop replays them). */
  systemChars: { first: number; last: number };
  /** Spans one traced run sends (checked on every traced run): the run, its stages, its model calls. */
  spansPerTracedRun: number;
  places: LlmPlaceResult[];
}

function graphOf(stages: number): Graph {
  const loaded = loadPipeline(generateLinearPipeline(stages));
  if (!loaded.ok || !loaded.graph) throw new LlmCheckError(`the generated ${stages}-stage pipeline does not load`);
  return loaded.graph;
}

function perStage(samples: readonly LlmSample[], stages: number): Stats {
  return summarize(samples.map((s) => s.ms / stages));
}

function cpuOfMedian(samples: readonly LlmSample[], stages: number): { user: number; system: number } {
  const mid = [...samples].sort((a, b) => a.ms - b.ms)[samples.length >> 1] as LlmSample;
  return { user: mid.userMs / stages, system: mid.systemMs / stages };
}

/** Times both cases on one place: warm-up pairs, then timed rounds alternating A B / B A, each followed by a floor measurement. */
/** The spans a traced run of `stages` LLM stages sends: the run, every stage (start and exit too), one model call per LLM stage. */
function expectedSpans(stages: number): number {
  return 1 + (stages + 2) + stages;
}

/** Checks what the receiver got from one traced run: every span, the model calls with their GenAI attributes. */
function checkTrace(receiver: OtlpReceiver, before: number, stages: number, label: string): void {
  const spans = receiver.spans().slice(before);
  if (spans.length !== expectedSpans(stages)) throw new LlmCheckError(`${label}: the OTLP receiver got ${spans.length} spans, expected ${expectedSpans(stages)}`);
  const calls = spans.filter((s) => s.name === `chat ${BENCH_MODEL}`);
  const bad = calls.find((s) => s.attributes['gen_ai.provider.name'] !== 'openai' || s.attributes['gen_ai.usage.input_tokens'] !== 100 || s.attributes['gen_ai.usage.output_tokens'] !== 14);
  if (calls.length !== stages || bad) throw new LlmCheckError(`${label}: ${calls.length} model-call spans (expected ${stages})${bad ? `, one with attributes ${JSON.stringify(bad.attributes)}` : ''}`);
}

async function measurePlace(
  place: Place,
  graph: Graph,
  server: ScriptedOpenAIServer,
  conversations: BaseMessage[][],
  receiver: OtlpReceiver,
  options: LlmBenchmarkOptions,
): Promise<LlmPlaceResult> {
  const { stages, runs, warmupRuns } = options;
  const base = mkdtempSync(join(place.dir, 'orchestra-llm-bench-'));
  const traced = benchTracing(receiver.tracesUrl);
  try {
    let count = 0;
    const orchestra = async () => (await runOrchestraCase(graph, stages, server, join(base, `run-${++count}`))).sample;
    const bare = async () => (await runBareCase(conversations, server)).sample;
    const tracedRun = async () => {
      const before = receiver.spans().length;
      const { sample } = await runOrchestraCase(graph, stages, server, join(base, `run-${++count}`), traced);
      checkTrace(receiver, before, stages, `traced run ${count}`);
      return sample;
    };
    for (let i = 0; i < warmupRuns; i++) {
      await orchestra();
      await bare();
      await tracedRun();
    }
    const a: LlmSample[] = [];
    const b: LlmSample[] = [];
    const t: LlmSample[] = [];
    const floor: number[] = [];
    for (let round = 0; round < runs; round++) {
      options.progress?.(`bench:llm: ${place.name}, round ${round + 1} of ${runs}`);
      if (round % 2 === 0) {
        a.push(await orchestra());
        b.push(await bare());
        t.push(await tracedRun());
      } else {
        t.push(await tracedRun());
        b.push(await bare());
        a.push(await orchestra());
      }
      floor.push(timeFileCreation(base, stages) / stages);
    }
    const tracedStats = perStage(t, stages);
    const orchestraStats = perStage(a, stages);
    const bareStats = perStage(b, stages);
    const fileFloor = summarize(floor);
    const addedMedian = orchestraStats.median - bareStats.median;
    return {
      place: place.name,
      dir: place.dir,
      orchestra: orchestraStats,
      bare: bareStats,
      addedMedian,
      addedPerRound: summarize(a.map((s, i) => (s.ms - (b[i] as LlmSample).ms) / stages)),
      addedMin: orchestraStats.min - bareStats.min,
      cpu: { orchestra: cpuOfMedian(a, stages), bare: cpuOfMedian(b, stages) },
      fileFloor,
      addedMinusFloor: addedMedian - fileFloor.median,
      traced: tracedStats,
      tracingAddedMedian: tracedStats.median - orchestraStats.median,
      tracingAddedPerRound: summarize(t.map((s, i) => (s.ms - (a[i] as LlmSample).ms) / stages)),
    };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/**
 * The per-stage overhead benchmark: starts the scripted OpenAI-compatible
 * server in this process, runs one orchestra pipeline first to record the
 * messages orchestra sends (system message with its preamble, and each
 * stage's prompt) for the bare loop to replay, checks that the bare loop's
 * request bodies are byte for byte the same, then measures the cases on
 * each place: A orchestra (tracing off), B the bare loop, T orchestra with
 * tracing on, sending to an OTLP receiver in this process (every traced
 * run's spans are checked). Throws {@link LlmCheckError} when a run goes wrong.
 */
export async function runLlmBenchmark(options: LlmBenchmarkOptions): Promise<LlmBenchmarkResult> {
  const { stages } = options;
  const graph = graphOf(stages);
  const server = await startScriptedOpenAIServer({ responder: benchReply });
  const receiver = await startOtlpReceiver();
  try {
    const first = options.places[0];
    if (!first) throw new RangeError('runLlmBenchmark needs at least one place');
    const probeDir = mkdtempSync(join(first.dir, 'orchestra-llm-probe-'));
    let conversations: BaseMessage[][];
    try {
      const { requests } = await runOrchestraCase(graph, stages, server, join(probeDir, 'run'));
      conversations = requests.map(toLangChain);
      checkSameRequests(requests, (await runBareCase(conversations, server)).requests);
    } finally {
      rmSync(probeDir, { recursive: true, force: true });
    }
    const systemText = (messages: BaseMessage[] | undefined) => String(messages?.[0]?.content ?? '').length;
    const places: LlmPlaceResult[] = [];
    for (const place of options.places) places.push(await measurePlace(place, graph, server, conversations, receiver, options));
    return {
      stages,
      runs: options.runs,
      warmupRuns: options.warmupRuns,
      systemChars: { first: systemText(conversations[0]), last: systemText(conversations.at(-1)) },
      spansPerTracedRun: expectedSpans(stages),
      places,
    };
  } finally {
    await server.close();
    await receiver.close();
  }
}
