import { loadPipeline, type LoadResult } from '@orchestra/core';
import { generatePipeline } from '@orchestra/testing';
import { parse, type DotASTNode } from 'ts-graphviz/ast';
import { measureInterleaved, type Stats } from './measure.js';

/**
 * Options passed to the bare ts-graphviz parse. Its default `maxASTNodes`
 * (100,000) refuses a 10,000-node file, so the limit is switched off.
 */
export const BARE_PARSE_OPTIONS = { maxASTNodes: 0 } as const;

/** Thrown when the orchestra loader does not produce the expected graph: timing a broken loader is meaningless. */
export class LoadCheckError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LoadCheckError';
  }
}

/** Options of {@link runLoadBenchmark}. */
export interface LoadBenchmarkOptions {
  /** Stage nodes in the generated pipeline (start and exit come on top). */
  nodes: number;
  /** Timed runs of each case. */
  runs: number;
  /** Untimed runs of each case first. */
  warmupRuns: number;
}

/** The figures for one pipeline size. */
export interface LoadBenchmarkResult {
  nodes: number;
  /** Size of the generated source in bytes (UTF-8). */
  sourceBytes: number;
  /** `parse(source, BARE_PARSE_OPTIONS)` from `ts-graphviz/ast`. */
  bareParse: Stats;
  /** `loadPipeline(source)`: parse + built-in transforms + all lint rules. */
  orchestraLoad: Stats;
  /** orchestraLoad.median / bareParse.median. */
  ratioMedian: number;
  /** orchestraLoad.min / bareParse.min. */
  ratioMin: number;
}

/** The bare ts-graphviz parse the loader is compared with. */
export function bareParse(source: string): DotASTNode {
  return parse(source, BARE_PARSE_OPTIONS);
}

/** Throws {@link LoadCheckError} unless `result` is a clean load of a pipeline with `nodes` stages. */
export function checkLoad(result: LoadResult, nodes: number): void {
  if (!result.ok) {
    const first = result.diagnostics.find((d) => d.severity === 'error') ?? result.diagnostics[0];
    const detail = first ? `: [${first.rule}] ${first.message}` : '';
    throw new LoadCheckError(`orchestra load of the ${nodes}-node pipeline is not ok${detail}`);
  }
  const size = result.graph?.nodes.size;
  if (size !== nodes + 2) {
    throw new LoadCheckError(`orchestra load of the ${nodes}-node pipeline has ${size ?? 'no'} nodes, expected ${nodes + 2}`);
  }
}

/**
 * Generates a pipeline of `nodes` stages once, then times the bare
 * ts-graphviz parse and the full orchestra load side by side (interleaved),
 * checking every load. Throws {@link LoadCheckError} on a bad load.
 */
export function runLoadBenchmark(options: LoadBenchmarkOptions): LoadBenchmarkResult {
  const { nodes, runs, warmupRuns } = options;
  const source = generatePipeline({ nodes });
  const file = `generated-${nodes}.dot`;
  const [bare, load] = measureInterleaved<[DotASTNode, LoadResult]>(
    [
      { name: 'bare parse', run: () => bareParse(source) },
      { name: 'orchestra load', run: () => loadPipeline(source, { file }), verify: (result) => checkLoad(result, nodes) },
    ],
    { runs, warmupRuns },
  );
  const bareParseStats = stats(bare!);
  const orchestraLoadStats = stats(load!);
  return {
    nodes,
    sourceBytes: Buffer.byteLength(source, 'utf8'),
    bareParse: bareParseStats,
    orchestraLoad: orchestraLoadStats,
    ratioMedian: orchestraLoadStats.median / bareParseStats.median,
    ratioMin: orchestraLoadStats.min / bareParseStats.min,
  };
}

function stats({ median, min, max, samples }: Stats): Stats {
  return { median, min, max, samples };
}
