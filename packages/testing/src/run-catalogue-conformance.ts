import { OrchestraError, RunLockedError, runPipeline, simulationBackend, type RunCatalogue } from '@orchestra/core';
import { readRunReport, type Awaitable } from '@orchestra/core/store';
import { loadPipeline } from '@orchestra/core/loader';
import { describe, expect, it } from 'vitest';
import { sampleManifest } from './conformance/sample-records.js';
import { thrownBy } from './conformance/with-fixture.js';

/** A fresh, empty catalogue for one case, and how to clean up after it. */
export interface RunCatalogueFixture<C extends RunCatalogue = RunCatalogue> {
  catalogue: C;
  cleanup(): Awaitable<void>;
}

/** Makes the fixture of one catalogue conformance case. */
export type RunCatalogueFactory<C extends RunCatalogue = RunCatalogue> = () => Awaitable<RunCatalogueFixture<C>>;

async function withCatalogue<C extends RunCatalogue>(factory: RunCatalogueFactory<C>, body: (catalogue: C) => Promise<void>): Promise<void> {
  const fixture = await factory();
  try {
    await body(fixture.catalogue);
  } finally {
    await fixture.cleanup();
  }
}

function graphOf(source: string) {
  const loaded = loadPipeline(source, { file: 'catalogue.dot' });
  if (!loaded.graph || !loaded.ok) throw new Error(`test pipeline does not load: ${JSON.stringify(loaded.diagnostics)}`);
  return loaded.graph;
}

const SIMPLE = 'digraph Cat {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="Work"]\n  start -> work -> exit\n}\n';
/** Restarts once: from `work` into a new run that starts at `again` and ends. */
const RESTARTING = 'digraph Again {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="Work"]\n  again [prompt="Again"]\n  start -> work\n  work -> again [loop_restart=true]\n  again -> exit\n}\n';

/**
 * The behaviour every {@link RunCatalogue} must have, as vitest cases: new
 * ids are unique (also among ids handed out and not used yet) and name the
 * pipeline; nothing exists until a run is created in the store; a given id is
 * refused when it holds a run; `open` finds created runs (and the runs a
 * `loop_restart` continues them in) and refuses others with
 * `ORCH_RUN_NOT_FOUND`; `list` gives every run with its report, newest first,
 * and says why a damaged one cannot be read; `remove` deletes a run but not
 * one a live process holds.
 *
 * @example
 * ```ts
 * runCatalogueConformance('MemoryRunCatalogue', () => {
 *   const catalogue = new MemoryRunCatalogue();
 *   return { catalogue, cleanup: () => catalogue.dispose() };
 * });
 * ```
 */
export function runCatalogueConformance<C extends RunCatalogue>(name: string, factory: RunCatalogueFactory<C>): void {
  describe(`RunCatalogue conformance: ${name}`, () => {
    it('hands out a new id per run, named after the pipeline and stamped with the time; nothing exists before the run is created', () =>
      withCatalogue(factory, async (catalogue) => {
        const now = new Date('2026-01-02T03:04:05.678Z');
        const first = await catalogue.create('My Pipeline!', { now });
        const second = await catalogue.create('My Pipeline!', { now });
        expect(first.runId).toBe('20260102-030405-678-My_Pipeline_');
        expect(second.runId).toBe('20260102-030405-678-My_Pipeline_-2');
        expect(await first.exists()).toBe(false);
        expect((await thrownBy(() => catalogue.open(first.runId))) as OrchestraError).toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
        expect(await catalogue.list()).toEqual([]);
        await first.create(sampleManifest(first.runId), undefined);
        expect((await catalogue.open(first.runId)).location).toBe(first.location);
        expect((await catalogue.list()).map((l) => l.id)).toEqual([first.runId]);
      }));

    it('takes a given id, and refuses one that holds a run', () =>
      withCatalogue(factory, async (catalogue) => {
        const store = await catalogue.create('Cat', { id: 'chosen' });
        expect(store.runId).toBe('chosen');
        await store.create(sampleManifest('chosen'), undefined);
        const error = await thrownBy(() => catalogue.create('Cat', { id: 'chosen' }));
        expect(error).toBeInstanceOf(OrchestraError);
        expect(error).toMatchObject({ code: 'ORCH_RUN_EXISTS' });
        for (const bad of ['../x', 'a/b', '..']) expect(await thrownBy(() => catalogue.open(bad)), bad).toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
      }));

    it('lists its runs newest first with their reports, and says why a damaged one cannot be read', () =>
      withCatalogue(factory, async (catalogue) => {
        const older = await catalogue.create('Cat', { now: new Date('2026-01-01T00:00:00.000Z') });
        await runPipeline(graphOf(SIMPLE), { store: older, source: SIMPLE, backend: simulationBackend });
        const newer = await catalogue.create('Cat', { now: new Date('2026-01-02T00:00:00.000Z') });
        await runPipeline(graphOf(SIMPLE), { store: newer, source: SIMPLE, backend: simulationBackend });
        const listed = await catalogue.list();
        expect(listed.map((l) => l.id)).toEqual([newer.runId, older.runId]);
        for (const listing of listed) expect('report' in listing && listing.report.state).toBe('completed');
        // A checkpoint that claims steps the journal does not have: the run is listed with its problem.
        const checkpoint = await newer.readCheckpoint();
        await newer.writeCheckpoint({ ...(checkpoint as NonNullable<typeof checkpoint>), journal_seq: 99 });
        const damaged = (await catalogue.list()).find((l) => l.id === newer.runId);
        expect(damaged && 'problem' in damaged && damaged.problem).toMatch(/journal/);
        expect(await readRunReport(await catalogue.open(older.runId))).toMatchObject({ state: 'completed' });
      }));

    it('finds the run a loop_restart continues a run in by its id', () =>
      withCatalogue(factory, async (catalogue) => {
        const store = await catalogue.create('Again');
        const result = await runPipeline(graphOf(RESTARTING), { store, source: RESTARTING, backend: simulationBackend });
        expect(result.status).toBe('success');
        const successor = store.successor();
        expect(await successor.exists()).toBe(true);
        expect((await catalogue.open(successor.runId)).location).toBe(successor.location);
        expect((await catalogue.list()).map((l) => l.id).sort()).toEqual([store.runId, successor.runId].sort());
      }));

    it('removes a run, but not one a live process holds', () =>
      withCatalogue(factory, async (catalogue) => {
        const store = await catalogue.create('Cat');
        await store.create(sampleManifest(store.runId), undefined);
        const lease = await store.acquire();
        expect(await thrownBy(() => catalogue.remove(store.runId))).toBeInstanceOf(RunLockedError);
        await lease.release();
        await catalogue.remove(store.runId);
        expect(await thrownBy(() => catalogue.open(store.runId))).toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
        expect(await catalogue.list()).toEqual([]);
      }));
  });
}
