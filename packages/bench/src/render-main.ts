/**
 * Render benchmark: `pnpm --filter @orchestra/bench bench:render [--json] [--runs N]`.
 * `orchestra render`'s work on a 1,000-node pipeline (and a 100-node one):
 * building the Graphviz graph from the parsed model, and Graphviz's layout
 * and SVG output (WebAssembly). Loading the WebAssembly module once per
 * process is measured apart. Reported, not judged.
 */
import { cpus, loadavg } from 'node:os';
import { loadPipeline, type Graph } from '@orchestra/core';
import { pictureGraph, renderPipelineSvg } from '@orchestra/server';
import { generateLinearPipeline } from '@orchestra/testing';
import { formatSpread, parseRunArgs, type RunArgs } from './args.js';
import { measureInterleaved } from './measure.js';

async function main(): Promise<number> {
  let args: RunArgs;
  try {
    args = parseRunArgs(process.argv.slice(2), 7);
  } catch (error) {
    console.error(`bench:render: ${(error as Error).message}`);
    return 2;
  }
  const started = performance.now();
  await renderPipelineSvg(loadPipeline(generateLinearPipeline(1)).graph as Graph);
  const firstMs = performance.now() - started;
  const results: Record<string, unknown> = { firstRenderMs: firstMs };
  const lines: string[] = [];
  for (const size of [100, 1000]) {
    const graph = loadPipeline(generateLinearPipeline(size)).graph as Graph;
    // renderPipelineSvg is async only for the first load; time the synchronous work by awaiting each run.
    const samples: number[] = [];
    for (let i = 0; i < args.runs + 2; i++) {
      const t = performance.now();
      await renderPipelineSvg(graph);
      if (i >= 2) samples.push(performance.now() - t);
    }
    const [model] = measureInterleaved<[unknown]>([{ name: 'graph object', run: () => pictureGraph(graph) }], { warmupRuns: 2, runs: args.runs });
    const sorted = [...samples].sort((a, b) => a - b);
    const render = { median: sorted[Math.floor(sorted.length / 2)] as number, min: sorted[0] as number, max: sorted.at(-1) as number };
    results[`nodes${size}`] = { render, graphObject: model };
    lines.push(`    ${String(size).padStart(5)} nodes   render ${formatSpread(render)} ms   (of which the graph object ${formatSpread(model!, 2)} ms)`);
  }
  const load = loadavg()[0] ?? 0;
  if (args.json) {
    console.log(JSON.stringify({ ...results, load }));
    return 0;
  }
  console.log(`orchestra render benchmark (node ${process.version}; linear pipelines; ${args.runs} timed runs each after 2 warm-up runs; load ${load.toFixed(2)} on ${cpus().length} CPUs)`);
  console.log(`    first render in the process (WebAssembly load included): ${firstMs.toFixed(0)} ms`);
  for (const line of lines) console.log(line);
  return 0;
}

process.exitCode = await main();
