import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
import { generateLinearPipeline } from '@orchestra/testing';
const mb = () => (process.memoryUsage().rss / 1e6).toFixed(0) + 'MB rss, heap ' + (process.memoryUsage().heapUsed / 1e6).toFixed(0) + 'MB';
const gc = (globalThis as { gc?: () => void }).gc!;
console.log('start', mb());
const src = generateLinearPipeline(10_000);
console.log('generated', mb());
const loaded = loadPipeline(src);
console.log('parsed', mb(), 'maxRSS', process.resourceUsage().maxRSS / 1024);
gc(); gc();
console.log('after gc', mb());
let peak = 0;
const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 5);
for (let i = 0; i < 3; i++) {
  const dir = mkdtempSync(join(process.argv[2] ?? '/dev/shm', 'mp-'));
  peak = process.memoryUsage().rss;
  await runPipeline(loaded.graph!, { backend: simulationBackend, logsRoot: join(dir, 'r') });
  console.log('run', i, mb(), 'peak during run', (peak / 1e6).toFixed(0));
  rmSync(dir, { recursive: true, force: true });
  gc();
}
clearInterval(t);
