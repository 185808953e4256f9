import { join } from 'node:path';
import { FileRunStore, RunSupervisor, runPipeline, type RunStore } from '@orchestra/core';
import { loadPipeline } from '@orchestra/core/loader';
import { readRunReport, type JournalEntry } from '@orchestra/core/store';
import { PostgresRunCatalogue, RunQueue } from '@orchestra/store-postgres';
import { startPostgres, type PostgresServer } from '@orchestra/testing/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOrchestra, tempDir } from './cli-helpers.js';

/**
 * Workers are processes: these tests kill them (SIGKILL) in the middle of a
 * node and check that other workers finish every run exactly as an
 * uninterrupted run ends, each node visit recorded once.
 */

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.dispose());

type Worker = ReturnType<typeof startOrchestra>;
const workers: Worker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) {
    if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await w.done;
  }
});

function worker(url: string): Worker {
  const w = startOrchestra('worker', '--store', url, '--allow-tools', '--concurrency', '2', '--lease', '2');
  workers.push(w);
  return w;
}

/** A chain of tool nodes, each sleeping `sleep` seconds and printing its name after what the node before it printed. */
function chain(name: string, nodes: number, sleep: number): string {
  const lines = [`digraph ${name} {`, '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 1; i <= nodes; i++) lines.push(`  t${i} [shape=parallelogram, tool_command="sleep ${sleep}; echo t${i}-$ORCHESTRA_CTX_TOOL_OUTPUT | cut -c1-60"]`);
  lines.push(`  start -> ${Array.from({ length: nodes }, (_, i) => `t${i + 1}`).join(' -> ')} -> exit`, '}', '');
  return lines.join('\n');
}

/** What a journal entry says, without what differs between two runs of the same pipeline. */
function comparable(entry: JournalEntry) {
  return { seq: entry.seq, node: entry.node, status: entry.status, retries: entry.retries, context: entry.context, next: entry.next, end: entry.end };
}

/** The journal of the same pipeline run once, uninterrupted, in this process (a run directory). */
async function uninterrupted(source: string): Promise<ReturnType<typeof comparable>[]> {
  const { graph } = loadPipeline(source);
  if (!graph) throw new Error('bad test pipeline');
  const logsRoot = join(tempDir(), 'run');
  const result = await runPipeline(graph, { source, logsRoot, checkpointIntervalMs: 0 });
  expect(result.status).toBe('success');
  return ((await new FileRunStore(logsRoot).readJournal()).entries as JournalEntry[]).map(comparable);
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Queues `count` runs of `source` as `orchestra run --detach` does (one front end for all of them). */
async function queue(url: string, source: string, count: number): Promise<string[]> {
  const catalogue = new PostgresRunCatalogue(url);
  const dispatch = new RunQueue(catalogue.db);
  try {
    const front = new RunSupervisor({ catalogue, dispatch });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await front.enqueue({ source, file: join(tempDir(), 'pipeline.dot') })).id);
    return ids;
  } finally {
    await dispatch.stop();
    await catalogue.close();
  }
}

async function journalOf(store: RunStore): Promise<JournalEntry[]> {
  return (await store.readJournal()).entries as JournalEntry[];
}

describe('workers killed with SIGKILL', () => {
  it('a second worker finishes a run whose worker was killed mid-node, with the journal and outcome of an uninterrupted run', async () => {
    const url = await pg.createDatabase();
    const source = chain('Slow', 5, 0.25);
    const reference = uninterrupted(source); // meanwhile, in this process
    const [id] = await queue(url, source, 1);
    const catalogue = new PostgresRunCatalogue(url);
    try {
      const store = catalogue.store(id as string);
      const first = worker(url);
      // Killed while a node runs: two nodes are recorded, the third is sleeping.
      await until('two nodes', async () => ((await journalOf(store)).length >= 2 ? true : undefined));
      first.child.kill('SIGKILL');
      expect((await first.done).signal).toBe('SIGKILL');
      const before = (await journalOf(store)).length;
      expect(before).toBeLessThan(6);
      worker(url);
      const report = await until('the run to complete', async () => {
        const r = await readRunReport(catalogue.store(id as string));
        return r.state === 'completed' ? r : undefined;
      });
      expect(report.restored.state.completedNodes).toEqual(['start', 't1', 't2', 't3', 't4', 't5', 'exit']);
      expect((await journalOf(store)).map(comparable)).toEqual(await reference);
      // The events say a resume happened: the second worker took over from the checkpoint.
      expect((await store.readEvents()).filter((line) => line.includes('"type":"pipeline.started"')).length).toBe(2);
    } finally {
      await catalogue.close();
    }
  }, 90_000);

  it('20 random SIGKILL rounds across two workers: every run completes, identically, each node visit recorded once', async () => {
    const url = await pg.createDatabase();
    const source = chain('Rounds', 8, 0.1);
    const expected = uninterrupted(source); // meanwhile, in this process
    const ids = await queue(url, source, 3);
    let seed = 20_261_127;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const live = [worker(url), worker(url)];
    for (let round = 0; round < 20; round++) {
      await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 200)));
      const victim = live.splice(Math.floor(random() * live.length), 1)[0] as Worker;
      victim.child.kill('SIGKILL');
      await victim.done;
      live.push(worker(url));
    }
    const catalogue = new PostgresRunCatalogue(url);
    try {
      for (const id of ids) {
        await until(`run ${id} to complete`, async () => ((await readRunReport(catalogue.store(id))).state === 'completed' ? true : undefined), 90_000);
        expect((await journalOf(catalogue.store(id))).map(comparable), id).toEqual(await expected);
      }
    } finally {
      await catalogue.close();
    }
  }, 180_000);

  it('SIGTERM: the worker stops its run at a safe point, lets it go and queues it; another worker finishes it as if uninterrupted', async () => {
    const url = await pg.createDatabase();
    const source = chain('Term', 4, 0.25);
    const reference = uninterrupted(source); // meanwhile, in this process
    const [id] = await queue(url, source, 1);
    const catalogue = new PostgresRunCatalogue(url);
    try {
      const store = catalogue.store(id as string);
      const first = worker(url);
      await until('a node', async () => ((await journalOf(store)).length >= 2 ? true : undefined));
      first.child.kill('SIGTERM');
      const ended = await first.done;
      expect(ended.code, ended.stderr).toBe(0);
      expect(ended.stderr).toContain('orchestra worker: stopped');
      const report = await readRunReport(store);
      expect(report.state).toBe('stopped');
      expect(report.owner).toBeUndefined(); // its lease released
      worker(url);
      await until('the run to complete', async () => ((await readRunReport(store)).state === 'completed' ? true : undefined));
      expect((await journalOf(store)).map(comparable)).toEqual(await reference);
    } finally {
      await catalogue.close();
    }
  }, 90_000);
});
