/**
 * Engine benchmark: `pnpm bench` runs it after the loader benchmark. Linear
 * pipelines of 1,000 and 10,000 LLM stages in simulation, in one process after
 * warm-up; per-node overhead (median of several runs) and peak memory.
 */
import { runEngineBenchmark } from './engine-benchmark.js';

/** Targets of the engine benchmark. */
export const ENGINE_TARGETS = { microsPerNode: 200, peakRssMb: 150, growth: 1.25 } as const;

const json = process.argv.includes('--json');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt === -1 ? 5 : Number(process.argv[runsAt + 1]);

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const baselineRss = process.memoryUsage().rss;
const results = await runEngineBenchmark([1_000, 10_000], runs);
clearInterval(sampler);
const maxRssMb = process.resourceUsage().maxRSS / 1024;
const peakMb = Math.max(peakRss / 1e6, maxRssMb * 1.048576);

const [small, large] = results as [(typeof results)[number], (typeof results)[number]];
const growth = large.medianMicros / small.medianMicros;
const met = {
  perNode: large.medianMicros <= ENGINE_TARGETS.microsPerNode && small.medianMicros <= ENGINE_TARGETS.microsPerNode,
  growth: growth <= ENGINE_TARGETS.growth,
  memory: peakMb <= ENGINE_TARGETS.peakRssMb,
};

if (json) {
  console.log(JSON.stringify({ node: process.version, runs, results, growth, baselineRssMb: baselineRss / 1e6, peakRssMb: peakMb, targets: ENGINE_TARGETS, met }));
} else {
  console.log(`orchestra engine benchmark (node ${process.version}; linear pipelines in simulation, ${runs} timed runs per size after 2 warm-up runs)`);
  console.log('  per node: run time / nodes run, including prompt.md, response.md, status.json, the journal line and events');
  console.log('');
  console.log('  nodes   median µs/node   min µs/node');
  for (const r of results) console.log(`${r.nodes.toLocaleString('en-US').padStart(7)}   ${r.medianMicros.toFixed(0).padStart(14)}   ${r.minMicros.toFixed(0).padStart(11)}`);
  console.log('');
  console.log(`  growth 10,000 vs 1,000: ×${growth.toFixed(2)}; memory: baseline ${(baselineRss / 1e6).toFixed(0)} MB, peak ${peakMb.toFixed(0)} MB RSS (whole process)`);
  console.log(
    `targets: ≤ ${ENGINE_TARGETS.microsPerNode} µs/node — ${met.perNode ? 'met' : 'NOT met'}; no growth with length (≤ ×${ENGINE_TARGETS.growth}) — ${met.growth ? 'met' : 'NOT met'}; peak < ${ENGINE_TARGETS.peakRssMb} MB — ${met.memory ? 'met' : 'NOT met'}`,
  );
}
