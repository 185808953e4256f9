import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPipeline, runPipeline, simulationBackend, type Graph } from '@orchestra/core';
import { generateLinearPipeline } from '@orchestra/testing';

/** Per-node engine overhead at one pipeline size. */
export interface EngineBenchmarkResult {
  nodes: number;
  /** Microseconds per executed node (run time / nodes run), every timed run. */
  samples: number[];
  medianMicros: number;
  minMicros: number;
  /** CPU time per node of the median run: in the process (`user`) and in the kernel on its behalf (`system`: file creation). */
  cpuMicros: { user: number; system: number };
}

/** One timed run: wall time and CPU time per node. */
interface Sample {
  micros: number;
  user: number;
  system: number;
}

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

/**
 * Measures each size after two warm-up runs; `runs` timed runs per size.
 * `beforeRuns` is called after the warm-up, just before timing: by then the
 * memory the parser of the 10,000-node file held has been given back, so a
 * peak taken from there is the engine's.
 */
export async function runEngineBenchmark(
  sizes: readonly number[],
  runs: number,
  beforeRuns: () => void = () => {},
  parentDir: string = tmpdir(),
): Promise<EngineBenchmarkResult[]> {
  const base = mkdtempSync(join(parentDir, 'orchestra-engine-bench-'));
  try {
    const graphs = new Map(sizes.map((nodes) => [nodes, graphOf(nodes)] as const));
    const warm = graphs.get(1_000) ?? graphOf(1_000);
    (globalThis as { gc?: () => void }).gc?.();
    await timeRun(warm, base, 'warmup-1');
    await timeRun(warm, base, 'warmup-2');
    (globalThis as { gc?: () => void }).gc?.();
    beforeRuns();
    const results: EngineBenchmarkResult[] = [];
    for (const nodes of sizes) {
      const graph = graphs.get(nodes) as Graph;
      const timed: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        (globalThis as { gc?: () => void }).gc?.();
        timed.push(await timeRun(graph, base, `n${nodes}-${i}`));
      }
      const samples = timed.map((s) => s.micros);
      const mid = [...timed].sort((a, b) => a.micros - b.micros)[timed.length >> 1] as Sample;
      results.push({ nodes, samples, medianMicros: median(samples), minMicros: Math.min(...samples), cpuMicros: { user: mid.user, system: mid.system } });
    }
    return results;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
