import { existsSync } from 'node:fs';
import { runPipeline } from '@orchestra/core';
import type { Checkpoint } from '@orchestra/core/store';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../src/index.js';
import { runStoreConformance } from '../src/run-store-conformance.js';
import { sampleCheckpoint, sampleEntry, sampleManifest } from '../src/conformance/sample-records.js';
import { TALLY_PIPELINE, graphOf, sampleRegistry } from '../src/conformance/sample-pipelines.js';

runStoreConformance('MemoryRunStore', () => {
  const store = new MemoryRunStore();
  return {
    store,
    tear: (s, text) => s.tearJournal(text),
    tearEvents: (s, text) => s.tearEvents(text),
    crash: (s) => s.simulateCrash(),
    cleanup: () => store.dispose(),
  };
});

describe('MemoryRunStore', () => {
  it('is at memory:run-<n> by default, or where it is told; the run id is the last segment', () => {
    const a = new MemoryRunStore();
    const b = new MemoryRunStore();
    expect(a.location).toMatch(/^memory:run-\d+$/);
    expect(b.location).not.toBe(a.location);
    expect(a.runId).toBe(a.location.slice('memory:'.length));
    expect(new MemoryRunStore('memory:tests/nightly-7')).toMatchObject({ location: 'memory:tests/nightly-7', runId: 'nightly-7' });
  });

  it('continues in one shared successor per location: -restart-1, then -restart-2', () => {
    const store = new MemoryRunStore('memory:loop');
    const first = store.successor();
    expect(first.location).toBe('memory:loop-restart-1');
    expect(store.successor()).toBe(first);
    expect(first.successor().location).toBe('memory:loop-restart-2');
    expect(first.successor()).toBe(store.successor().successor());
  });

  it('makes a stage directory only when asked, and dispose removes those of the run and its successors', async () => {
    const store = new MemoryRunStore();
    const successor = store.successor();
    await store.stage('plain').write('status.json', '{}');
    const dir = store.stage('tool').directory();
    const later = successor.stage('tool').directory();
    expect(dir).not.toBe(later);
    expect([existsSync(dir), existsSync(later)]).toEqual([true, true]);
    store.dispose();
    expect([existsSync(dir), existsSync(later)]).toEqual([false, false]);
  });

  it('keeps a damaged complete journal line as a problem, as the file store reports one', () => {
    const store = new MemoryRunStore();
    store.appendJournal(sampleEntry(1));
    store.tearJournal('{"seq": not json}\n');
    store.appendJournal(sampleEntry(3));
    expect(store.readJournal()).toEqual({ entries: [sampleEntry(1)], problem: 'journal entry 2 is damaged; replay stopped before it', torn: false });
  });

  it('reads records back in their JSON form, as a file store would keep them', () => {
    const store = new MemoryRunStore();
    const checkpoint = { ...sampleCheckpoint(1), context: { when: new Date('2026-01-01T00:00:00.000Z') } } as unknown as Checkpoint;
    store.writeCheckpoint(checkpoint);
    expect(store.readCheckpoint()?.context).toEqual({ when: '2026-01-01T00:00:00.000Z' });
    store.create({ ...sampleManifest(store.runId), initial_context: { skipped: undefined, kept: 1 } }, undefined);
    expect(store.readManifest().initial_context).toEqual({ kept: 1 });
  });

  it('runs a pipeline without touching the disk for its records', async () => {
    const store = new MemoryRunStore();
    const registry = sampleRegistry();
    const result = await runPipeline(graphOf(TALLY_PIPELINE, registry), { registry, store, source: TALLY_PIPELINE });
    expect(result).toMatchObject({ status: 'success', logsRoot: store.location });
    expect(store.readJournal().entries.map((e) => e.node)).toEqual(['start', 'a', 'b', 'check', 'c', 'report', 'exit']);
    expect(store.readEvents().map((line) => (JSON.parse(line) as { type: string }).type)).toContain('pipeline.completed');
    expect(await store.stage('report').read('response.md')).toBe('[Simulated] Response for stage: report');
    expect(existsSync(store.location)).toBe(false);
    store.dispose();
  });
});
