/**
 * `pnpm bench:list [--runs-kept N] [--rounds R]`: how long a catalogue's
 * `list()` takes over N finished runs (what `orchestra status` without an id
 * and the server's GET /pipelines read), in a run directory tree and in
 * PostgreSQL, beside the floor: reading each run's records without making
 * anything of them (the same calls, one run after another).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileRunCatalogue, loadPipeline, runPipeline, simulationBackend, type RunCatalogue, type RunStore } from '@orchestra/core';
import { PostgresRunCatalogue } from '@orchestra/store-postgres';
import { postgresBinaries, startPostgres } from '@orchestra/testing/postgres';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} expects a positive integer`);
  return value;
}

const kept = option('--runs-kept', 500);
const rounds = option('--rounds', 5);
const source = 'digraph Listed {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [prompt="Review"]\n  start -> draft -> review -> exit\n}\n';
const { graph } = loadPipeline(source);
if (!graph) throw new Error('the benchmark pipeline does not load');

/** Reads what a report reads of each run, and nothing more. */
async function floor(stores: readonly RunStore[]): Promise<void> {
  for (const store of stores) {
    await store.readManifest();
    await store.readCheckpoint();
    await store.readJournal();
    await store.readSource();
    await store.leaseHolder();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function measure(name: string, catalogue: RunCatalogue): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < kept; i++) {
    const store = await catalogue.create(graph!.name);
    await runPipeline(graph!, { backend: simulationBackend, store, source });
    ids.push(store.location.split('/').at(-1) as string);
  }
  const stores = await Promise.all(ids.map((id) => catalogue.open(id)));
  const lists: number[] = [];
  const floors: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    const listed = await catalogue.list();
    lists.push(performance.now() - t);
    if (listed.length !== kept || listed.some((l) => !('report' in l))) throw new Error(`${name}: list() gave ${listed.length} runs`);
    t = performance.now();
    await floor(stores);
    floors.push(performance.now() - t);
  }
  const list = median(lists);
  const raw = median(floors);
  console.log(`| ${name} | ${kept} | ${list.toFixed(0)} | ${((list * 1000) / kept).toFixed(0)} | ${raw.toFixed(0)} | ×${(list / raw).toFixed(2)} |`);
}

console.log(`list() over finished runs of a 4-node pipeline, median of ${rounds} rounds (ms)\n`);
console.log('| store | runs | list() ms | µs per run | floor ms (records read one run after another) | list ÷ floor |');
console.log('|---|---|---|---|---|---|');
const dir = mkdtempSync(join(tmpdir(), 'orchestra-list-bench-'));
try {
  await measure('run directories', new FileRunCatalogue(join(dir, 'runs')));
  if (postgresBinaries()) {
    const server = await startPostgres();
    const catalogue = new PostgresRunCatalogue(await server.createDatabase());
    try {
      await measure('PostgreSQL', catalogue);
    } finally {
      await catalogue.close();
      server.stop();
    }
  } else console.log('| PostgreSQL | (no PostgreSQL binaries on this machine: skipped) | | | | |');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
