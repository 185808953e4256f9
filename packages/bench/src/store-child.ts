/**
 * Child process of `bench:store`'s peak-RSS figure: runs one chain of
 * `--nodes N` with `--store memory` (MemoryRunStore) or `--store file`
 * (FileRunStore under `--dir DIR`) in a fresh `node --expose-gc` process and
 * prints one JSON line: the process's peak RSS (`resourceUsage().maxRSS`,
 * its whole life: node itself, the graph, the run) and the RSS at each step.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { benchRegistry, chainGraph } from './store-graphs.js';
import { collectGarbage } from './store-measure.js';
import { fileStoreMaker, memoryStoreMaker, timeOrchestraChain } from './store-orchestra.js';

/** What the child prints. */
export interface ChildReport {
  store: 'memory' | 'file';
  nodes: number;
  /** µs per node of the run. */
  micros: number;
  /** RSS when the child started, after building the graph, and at the end (after a collection), in MB. */
  startRssMb: number;
  graphRssMb: number;
  endRssMb: number;
  /** Peak RSS of the whole process, in MB. */
  maxRssMb: number;
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const mb = (bytes: number) => bytes / 1e6;
const store = flag('--store');
const nodes = Number(flag('--nodes'));
if ((store !== 'memory' && store !== 'file') || !Number.isInteger(nodes) || nodes < 1) {
  console.error('usage: store-child.mjs --store memory|file --nodes N [--dir DIR]');
  process.exit(2);
}
const startRss = process.memoryUsage().rss;
const graph = chainGraph(nodes);
const registry = benchRegistry();
collectGarbage();
const graphRss = process.memoryUsage().rss;
let make;
let base: string | undefined;
if (store === 'memory') {
  make = await memoryStoreMaker();
  if (!make) {
    console.error('MemoryRunStore is not exported by @orchestra/testing');
    process.exit(3);
  }
} else {
  base = join(flag('--dir') ?? '/dev/shm', `orchestra-store-rss-${process.pid}`);
  // The run directory is removed after the report: removing 100,000 stage directories
  // (rmSync walks them in JavaScript) would add its own peak to the run's.
  const files = fileStoreMaker(base);
  make = (label: string) => ({ store: files(label).store, cleanup: () => {} });
}
try {
  const sample = await timeOrchestraChain(graph, nodes, registry, make);
  collectGarbage();
  const report: ChildReport = {
    store,
    nodes,
    micros: sample.micros,
    startRssMb: mb(startRss),
    graphRssMb: mb(graphRss),
    endRssMb: mb(process.memoryUsage().rss),
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
  };
  console.log(JSON.stringify(report));
} finally {
  if (base) rmSync(base, { recursive: true, force: true });
}
