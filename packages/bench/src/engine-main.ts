/**
 * Engine benchmark: `pnpm bench` runs it after the loader benchmark. Linear
 * pipelines of 1,000 and 10,000 LLM stages in simulation, in one process after
 * warm-up; per-node overhead (median of several runs) and peak memory.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runEngineBenchmark, type EngineBenchmarkResult } from './engine-benchmark.js';

/** Targets of the engine benchmark. */
export const ENGINE_TARGETS = { microsPerNode: 200, peakRssMb: 150, growth: 1.25 } as const;

const json = process.argv.includes('--json');
const runsAt = process.argv.indexOf('--runs');
const runs = runsAt === -1 ? 3 : Number(process.argv[runsAt + 1]);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 5);
const baselineRss = process.memoryUsage().rss;
const resetPeak = () => {
  peakRss = process.memoryUsage().rss;
};
// On the disk (the real case), then in memory (/dev/shm) where available: the second figure is
// the engine's own cost with every file still written, free of this machine's disk throttling.
const places = [{ name: 'disk', dir: tmpdir() }, ...(existsSync('/dev/shm') ? [{ name: 'memory (/dev/shm)', dir: '/dev/shm' }] : [])];
const measured = [];
// Memory is read during the timed runs of the first (disk) pass, from just after the warm-up.
let peakMb = 0;
for (const place of places) {
  measured.push({ place: place.name, results: await runEngineBenchmark([1_000, 10_000], runs, resetPeak, place.dir) });
  if (peakMb === 0) peakMb = peakRss / 1e6;
}
clearInterval(sampler);
// Also the process's lifetime peak, which covers parsing the 10,000-node pipelines.
const processPeakMb = (process.resourceUsage().maxRSS * 1024) / 1e6;

const verdict = (results: readonly EngineBenchmarkResult[]) => {
  const [small, large] = results as [EngineBenchmarkResult, EngineBenchmarkResult];
  const growth = large.medianMicros / small.medianMicros;
  return {
    growth,
    perNode: large.medianMicros <= ENGINE_TARGETS.microsPerNode && small.medianMicros <= ENGINE_TARGETS.microsPerNode,
    noGrowth: growth <= ENGINE_TARGETS.growth,
  };
};

if (json) {
  console.log(JSON.stringify({ node: process.version, runs, measured: measured.map((m) => ({ ...m, ...verdict(m.results) })), baselineRssMb: baselineRss / 1e6, peakRssMb: peakMb, processPeakRssMb: processPeakMb, targets: ENGINE_TARGETS }));
} else {
  console.log(`orchestra engine benchmark (node ${process.version}; linear pipelines in simulation, ${runs} timed runs per size after 2 warm-up runs)`);
  console.log('  per node: run time / nodes run, including prompt.md, response.md, status.json, the journal line and events');
  console.log('  CPU per node (median run): user = in the process, system = in the kernel for it (creating the files and directories)');
  for (const m of measured) {
    const v = verdict(m.results);
    console.log('');
    console.log(`  run directory on ${m.place}`);
    console.log('    nodes   median µs/node   min µs/node   CPU µs/node: user   system');
    for (const r of m.results) {
      console.log(
        `  ${r.nodes.toLocaleString('en-US').padStart(7)}   ${r.medianMicros.toFixed(0).padStart(14)}   ${r.minMicros.toFixed(0).padStart(11)}   ${r.cpuMicros.user.toFixed(0).padStart(17)}   ${r.cpuMicros.system.toFixed(0).padStart(6)}`,
      );
    }
    console.log(`    growth 10,000 vs 1,000: ×${v.growth.toFixed(2)}`);
    console.log(`    targets: ≤ ${ENGINE_TARGETS.microsPerNode} µs/node — ${v.perNode ? 'met' : 'NOT met'}; no growth with length (≤ ×${ENGINE_TARGETS.growth}) — ${v.noGrowth ? 'met' : 'NOT met'}`);
  }
  console.log('');
  console.log(
    `  RSS: baseline ${(baselineRss / 1e6).toFixed(0)} MB, peak while the engine ran (timed runs, disk pass) ${peakMb.toFixed(0)} MB (target < ${ENGINE_TARGETS.peakRssMb} MB — ${peakMb <= ENGINE_TARGETS.peakRssMb ? 'met' : 'NOT met'}), process peak ${processPeakMb.toFixed(0)} MB (includes parsing the 10,000-node file)`,
  );
}
