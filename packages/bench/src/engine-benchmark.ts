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
async function timeRun(graph: Graph, base: string, label: string): Promise<number> {
  const logsRoot = join(base, label);
  const started = performance.now();
  const result = await runPipeline(graph, { backend: simulationBackend, logsRoot });
  const elapsed = performance.now() - started;
  if (result.status !== 'success' || result.completedNodes.length !== graph.nodes.size) {
    throw new Error(`engine benchmark run ${label} ended ${result.status} after ${result.completedNodes.length} nodes`);
  }
  rmSync(logsRoot, { recursive: true, force: true });
  return (elapsed * 1000) / result.completedNodes.length;
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
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        (globalThis as { gc?: () => void }).gc?.();
        samples.push(await timeRun(graph, base, `n${nodes}-${i}`));
      }
      results.push({ nodes, samples, medianMicros: median(samples), minMicros: Math.min(...samples) });
    }
    return results;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
