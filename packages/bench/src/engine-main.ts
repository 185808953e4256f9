/**
 * Engine benchmark: `pnpm bench` runs it after the loader benchmark. Linear
 * pipelines of 1,000 and 10,000 LLM stages in simulation, in one process after
 * warm-up; per-node overhead (median of several runs) and peak memory.
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { runEngineBenchmark, type EngineBenchmarkResult } from './engine-benchmark.js';

/** Targets of the engine benchmark (`overFloor`: issue 22, on tmpfs at 1,000 nodes). */
export const ENGINE_TARGETS = { microsPerNode: 200, peakRssMb: 150, growth: 1.25, overFloor: 2 } as const;

const json = process.argv.includes('--json');
const numberFlag = (name: string, fallback: number): number => {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const runs = numberFlag('--runs', 3);
const warmupRuns = numberFlag('--warmup', 10);

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
// `--tmpfs-only` skips the disk pass (most of the benchmark's time on a slow disk).
const tmpfsOnly = process.argv.includes('--tmpfs-only') && existsSync('/dev/shm');
const places = [...(tmpfsOnly ? [] : [{ name: 'disk', dir: tmpdir() }]), ...(existsSync('/dev/shm') ? [{ name: 'memory (/dev/shm)', dir: '/dev/shm' }] : [])];
const measured: { place: string; collectBeforeEachRun: boolean; results: EngineBenchmarkResult[] }[] = [];
// Memory is read during the timed runs of the first (disk) pass, from just after the warm-up.
let peakMb = 0;
for (const place of places) {
  const warmupDir = existsSync('/dev/shm') ? '/dev/shm' : place.dir;
  // The disk pass is where peak memory is read: it collects garbage before each timed run (as this benchmark always did).
  const collectBeforeEachRun = place.name === 'disk';
  measured.push({ place: place.name, collectBeforeEachRun, results: await runEngineBenchmark([1_000, 10_000], { runs, warmupRuns, beforeRuns: resetPeak, parentDir: place.dir, warmupDir, collectBeforeEachRun }) });
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
    overFloor: small.overFloor.median <= ENGINE_TARGETS.overFloor,
  };
};

if (json) {
  console.log(JSON.stringify({ node: process.version, runs, warmupRuns, loadAverage: loadavg()[0], measured: measured.map((m) => ({ ...m, ...verdict(m.results) })), baselineRssMb: baselineRss / 1e6, peakRssMb: peakMb, processPeakRssMb: processPeakMb, targets: ENGINE_TARGETS }));
} else {
  console.log(`orchestra engine benchmark (node ${process.version}; linear pipelines in simulation, ${runs} timed runs per size after ${warmupRuns} warm-up runs of 1,000 nodes, on /dev/shm where there is one)`);
  console.log('  per node: run time / nodes run, including prompt.md, response.md, status.json, the journal line and events');
  console.log('  CPU per node (median run): user = in the process, system = in the kernel for it (creating the files and directories)');
  console.log('  floor: the file-system calls alone, after each timed run, same size and place: mkdir of the stage directory, prompt.md, response.md and');
  console.log('  status.json (writeFileSync), one journal line (writeSync to the open journal); × floor = orchestra median / floor median (mins)');
  for (const m of measured) {
    const v = verdict(m.results);
    console.log('');
    console.log(`  run directory on ${m.place}${m.collectBeforeEachRun ? ' (garbage collected before each timed run, for the peak-memory reading: the runs pay the JIT warming up again)' : ''}`);
    console.log('    nodes   median µs/node   min µs/node   CPU µs/node: user   system   floor µs/node: median   min   user   system   × floor');
    for (const r of m.results) {
      const f = r.floor;
      console.log(
        `  ${r.nodes.toLocaleString('en-US').padStart(7)}   ${r.medianMicros.toFixed(0).padStart(14)}   ${r.minMicros.toFixed(0).padStart(11)}   ${r.cpuMicros.user.toFixed(0).padStart(17)}   ${r.cpuMicros.system.toFixed(0).padStart(6)}   ${f.medianMicros.toFixed(1).padStart(20)}   ${f.minMicros.toFixed(1).padStart(4)}   ${f.cpuMicros.user.toFixed(0).padStart(4)}   ${f.cpuMicros.system.toFixed(0).padStart(6)}   ×${r.overFloor.median.toFixed(2)} (×${r.overFloor.min.toFixed(2)})`,
      );
    }
    console.log(`    growth 10,000 vs 1,000: ×${v.growth.toFixed(2)}`);
    console.log(`    targets: ≤ ${ENGINE_TARGETS.microsPerNode} µs/node — ${v.perNode ? 'met' : 'NOT met'}; no growth with length (≤ ×${ENGINE_TARGETS.growth}) — ${v.noGrowth ? 'met' : 'NOT met'}`);
    if (m.place.includes('/dev/shm')) console.log(`    target: 1,000 nodes within ×${ENGINE_TARGETS.overFloor} of the floor (medians) — ${v.overFloor ? 'met' : 'NOT met'}`);
  }
  console.log('');
  console.log(`  load average (1 min) ${(loadavg()[0] ?? 0).toFixed(2)} on ${cpus().length} CPUs`);
  console.log(
    `  RSS: baseline ${(baselineRss / 1e6).toFixed(0)} MB, peak while the engine ran (timed runs, ${measured[0]?.place ?? 'first'} pass${measured[0]?.collectBeforeEachRun ? '' : ', no collection between them'}) ${peakMb.toFixed(0)} MB (target < ${ENGINE_TARGETS.peakRssMb} MB — ${peakMb <= ENGINE_TARGETS.peakRssMb ? 'met' : 'NOT met'}), process peak ${processPeakMb.toFixed(0)} MB (includes parsing the 10,000-node file)`,
  );
}
