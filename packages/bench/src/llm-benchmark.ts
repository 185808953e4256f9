import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BaseMessage } from '@langchain/core/messages';
import { loadPipeline, type Graph } from '@orchestra/core';
import { generateLinearPipeline, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { timeFileCreation } from './file-floor.js';
import { LlmCheckError, benchReply, checkSameRequests, runBareCase, runOrchestraCase, toLangChain, type LlmSample } from './llm-cases.js';
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
}

/** The whole benchmark's result. */
export interface LlmBenchmarkResult {
  stages: number;
  runs: number;
  warmupRuns: number;
  /** Characters of the system message orchestra sent, first and last stage (the bare loop replays them). */
  systemChars: { first: number; last: number };
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
async function measurePlace(
  place: Place,
  graph: Graph,
  server: ScriptedOpenAIServer,
  conversations: BaseMessage[][],
  options: LlmBenchmarkOptions,
): Promise<LlmPlaceResult> {
  const { stages, runs, warmupRuns } = options;
  const base = mkdtempSync(join(place.dir, 'orchestra-llm-bench-'));
  try {
    let count = 0;
    const orchestra = async () => (await runOrchestraCase(graph, stages, server, join(base, `run-${++count}`))).sample;
    const bare = async () => (await runBareCase(conversations, server)).sample;
    for (let i = 0; i < warmupRuns; i++) {
      await orchestra();
      await bare();
    }
    const a: LlmSample[] = [];
    const b: LlmSample[] = [];
    const floor: number[] = [];
    for (let round = 0; round < runs; round++) {
      options.progress?.(`bench:llm: ${place.name}, round ${round + 1} of ${runs}`);
      if (round % 2 === 0) {
        a.push(await orchestra());
        b.push(await bare());
      } else {
        b.push(await bare());
        a.push(await orchestra());
      }
      floor.push(timeFileCreation(base, stages) / stages);
    }
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
 * request bodies are byte for byte the same, then measures both cases on
 * each place. Throws {@link LlmCheckError} when a run goes wrong.
 */
export async function runLlmBenchmark(options: LlmBenchmarkOptions): Promise<LlmBenchmarkResult> {
  const { stages } = options;
  const graph = graphOf(stages);
  const server = await startScriptedOpenAIServer({ responder: benchReply });
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
    for (const place of options.places) places.push(await measurePlace(place, graph, server, conversations, options));
    return {
      stages,
      runs: options.runs,
      warmupRuns: options.warmupRuns,
      systemChars: { first: systemText(conversations[0]), last: systemText(conversations.at(-1)) },
      places,
    };
  } finally {
    await server.close();
  }
}
