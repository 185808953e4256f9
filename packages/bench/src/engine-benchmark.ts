import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPipeline, runPipeline, simulationBackend, type Graph } from '@orchestra/core';
import { generateLinearPipeline } from '@orchestra/testing';
import { timeStageFloor, type FloorSample } from './stage-floor.js';

/** Per-node engine overhead at one pipeline size. */
export interface EngineBenchmarkResult {
  nodes: number;
  /** Microseconds per executed node (run time / nodes run), every timed run. */
  samples: number[];
  medianMicros: number;
  minMicros: number;
  /** CPU time per node of the median run: in the process (`user`) and in the kernel on its behalf (`system`: file creation). */
  cpuMicros: { user: number; system: number };
  /** The file-system floor per node (`timeStageFloor`: mkdir, the three stage files, one journal line), one run after each timed run, in the same place. */
  floor: { samples: number[]; medianMicros: number; minMicros: number; cpuMicros: { user: number; system: number } };
  /** Median µs/node over median floor (and the same for the minimums). */
  overFloor: { median: number; min: number };
}

/** One timed run: wall time and CPU time per node. */
type Sample = FloorSample;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function graphOf(nodes: number): Graph {
  const loaded = loadPipeline(generateLinearPipeline(nodes));
  if (!loaded.ok || !loaded.graph) throw new Error(`generated ${nodes}-node pipeline does not load`);
  return loaded.graph;
}

/**
 * Runs a linear pipeline in simulation and returns µs per node. Every node
 * writes prompt.md, response.md and status.json and its journal line, as in a
 * real run; the run directory is removed afterwards (outside the timing).
 */
async function timeRun(graph: Graph, base: string, label: string): Promise<Sample> {
  const logsRoot = join(base, label);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await runPipeline(graph, { backend: simulationBackend, logsRoot });
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (result.status !== 'success' || result.completedNodes.length !== graph.nodes.size) {
    throw new Error(`engine benchmark run ${label} ended ${result.status} after ${result.completedNodes.length} nodes`);
  }
  rmSync(logsRoot, { recursive: true, force: true });
  const n = result.completedNodes.length;
  return { micros: (elapsed * 1000) / n, user: used.user / n, system: used.system / n };
}

/** Options of {@link runEngineBenchmark}. */
export interface EngineBenchmarkOptions {
  /** Timed runs per size. */
  runs: number;
  /** Untimed 1,000-node runs first (default 10), each followed by an untimed floor run. */
  warmupRuns?: number;
  /** Called after the warm-up, just before timing (the caller resets its peak-memory reading there). */
  beforeRuns?: () => void;
  /** Where the run directories go (default the OS temp directory). */
  parentDir?: string;
  /** Where the warm-up runs go (default `parentDir`): the JIT does not care where the files are, a slow disk does. */
  warmupDir?: string;
  /**
   * Collect garbage (with `--expose-gc`) before every timed run, so a peak
   * memory reading is the engine's and not garbage left by the run before;
   * the runs then pay the JIT warming up again (see below). Default false.
   */
  collectBeforeEachRun?: boolean;
}

/**
 * Measures each size after the warm-up; `runs` timed runs per size, each
 * followed by a run of the file-system floor at the same size and place.
 * Garbage is collected (with `--expose-gc`) once, before the warm-up, and
 * not between timed runs unless asked: a forced collection makes V8 drop its optimised code,
 * and a run after one measures the JIT warming up again (a 1,000-node run
 * took ~120 µs/node of CPU right after one, ~65 without), not the engine.
 * About ten 1,000-node runs get the engine's code optimised (the store
 * benchmark measured the same).
 */
export async function runEngineBenchmark(sizes: readonly number[], options: EngineBenchmarkOptions): Promise<EngineBenchmarkResult[]> {
  const { runs, warmupRuns = 10, beforeRuns = () => {}, parentDir = tmpdir() } = options;
  const base = mkdtempSync(join(parentDir, 'orchestra-engine-bench-'));
  const warmBase = options.warmupDir ? mkdtempSync(join(options.warmupDir, 'orchestra-engine-warm-')) : base;
  try {
    const graphs = new Map(sizes.map((nodes) => [nodes, graphOf(nodes)] as const));
    const warm = graphs.get(1_000) ?? graphOf(1_000);
    (globalThis as { gc?: () => void }).gc?.();
    for (let i = 0; i < warmupRuns; i++) {
      await timeRun(warm, warmBase, `warmup-${i}`);
      timeStageFloor(warmBase, 1_000);
    }
    beforeRuns();
    const results: EngineBenchmarkResult[] = [];
    for (const nodes of sizes) {
      const graph = graphs.get(nodes) as Graph;
      const timed: Sample[] = [];
      const floors: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        if (options.collectBeforeEachRun) (globalThis as { gc?: () => void }).gc?.();
        timed.push(await timeRun(graph, base, `n${nodes}-${i}`));
        floors.push(timeStageFloor(base, nodes));
      }
      const samples = timed.map((s) => s.micros);
      const floorSamples = floors.map((s) => s.micros);
      const mid = [...timed].sort((a, b) => a.micros - b.micros)[timed.length >> 1] as Sample;
      const floorMid = [...floors].sort((a, b) => a.micros - b.micros)[floors.length >> 1] as Sample;
      const floor = { samples: floorSamples, medianMicros: median(floorSamples), minMicros: Math.min(...floorSamples), cpuMicros: { user: floorMid.user, system: floorMid.system } };
      const medianMicros = median(samples);
      const minMicros = Math.min(...samples);
      results.push({
        nodes,
        samples,
        medianMicros,
        minMicros,
        cpuMicros: { user: mid.user, system: mid.system },
        floor,
        overFloor: { median: medianMicros / floor.medianMicros, min: minMicros / floor.minMicros },
      });
    }
    return results;
  } finally {
    rmSync(base, { recursive: true, force: true });
    if (warmBase !== base) rmSync(warmBase, { recursive: true, force: true });
  }
}
