import { CheckpointError, OrchestraError, RunLockedError, type RunStore } from '@orchestra/core';
import { expect, it } from 'vitest';
import type { RunStoreFactory } from './fixture.js';
import { sampleCheckpoint, sampleEntry, sampleManifest } from './sample-records.js';
import { thrownBy, withFixture } from './with-fixture.js';

/** Cases for the run's records: manifest, source, journal, checkpoint, events, interviews, documents. */
export function recordCases<S extends RunStore>(factory: RunStoreFactory<S>): void {
  it('creates a run: exists, manifest and source read back', () =>
    withFixture(factory, async ({ store }) => {
      expect(await store.exists()).toBe(false);
      expect(await thrownBy(() => store.readManifest())).toBeInstanceOf(CheckpointError);
      await store.create(sampleManifest(store.runId), 'digraph Sample { start -> exit }');
      expect(await store.exists()).toBe(true);
      expect(await store.readManifest()).toEqual(sampleManifest(store.runId));
      expect(await store.readSource()).toBe('digraph Sample { start -> exit }');
      expect(await store.readCheckpoint()).toBeUndefined();
    }));

  it('keeps no source when none was given', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.readSource()).toBeUndefined();
    }));

  it('refuses to create a run twice (ORCH_RUN_EXISTS) and keeps the first', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), 'first');
      const error = await thrownBy(() => store.create({ ...sampleManifest(store.runId), goal: 'second' }, 'second'));
      expect(error).toBeInstanceOf(OrchestraError);
      expect((error as OrchestraError).code).toBe('ORCH_RUN_EXISTS');
      expect((await store.readManifest()).goal).toBe('conform');
      expect(await store.readSource()).toBe('first');
    }));

  it('refuses to create a run a live process holds with RunLockedError', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      const lease = await store.acquire();
      try {
        const error = await thrownBy(() => store.create(sampleManifest(store.runId), undefined));
        expect(error).toBeInstanceOf(RunLockedError);
        expect((error as RunLockedError).holder.pid).toBe(process.pid);
      } finally {
        await lease.release();
      }
      expect((await thrownBy(() => store.create(sampleManifest(store.runId), undefined)) as OrchestraError).code).toBe('ORCH_RUN_EXISTS');
    }));

  it('appends journal entries and reads them back in order, as copies', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.readJournal()).toEqual({ entries: [], torn: false });
      const third = sampleEntry(3);
      for (const entry of [sampleEntry(1), sampleEntry(2), third]) await store.appendJournal(entry);
      third.context.k3 = 'changed after the append';
      const read = await store.readJournal();
      expect(read).toEqual({ entries: [sampleEntry(1), sampleEntry(2), sampleEntry(3)], torn: false });
      (read.entries[0] as { node: string }).node = 'changed by a reader';
      expect((await store.readJournal()).entries[0]).toEqual(sampleEntry(1));
    }));

  it('drops and reports a torn last journal entry; the next append starts clean', () =>
    withFixture(factory, async (fixture) => {
      const { store } = fixture;
      await store.create(sampleManifest(store.runId), undefined);
      await store.appendJournal(sampleEntry(1));
      await store.appendJournal(sampleEntry(2));
      await fixture.tear(store, JSON.stringify(sampleEntry(3)).slice(0, 25));
      expect(await store.readJournal()).toEqual({ entries: [sampleEntry(1), sampleEntry(2)], torn: true });
      await store.appendJournal(sampleEntry(3));
      expect(await store.readJournal()).toEqual({ entries: [sampleEntry(1), sampleEntry(2), sampleEntry(3)], torn: false });
    }));

  it('replaces the checkpoint: none before the first write, the last one wins, reads are copies', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.readCheckpoint()).toBeUndefined();
      await store.writeCheckpoint(sampleCheckpoint(1));
      expect(await store.readCheckpoint()).toEqual(sampleCheckpoint(1));
      const second = sampleCheckpoint(2);
      await store.writeCheckpoint(second);
      second.completed_nodes.push('changed after the write');
      const read = await store.readCheckpoint();
      expect(read).toEqual(sampleCheckpoint(2));
      read?.completed_nodes.push('changed by a reader');
      expect(await store.readCheckpoint()).toEqual(sampleCheckpoint(2));
    }));

  it('appends event lines in order and drops a torn last one; the next append starts clean', () =>
    withFixture(factory, async (fixture) => {
      const { store } = fixture;
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.readEvents()).toEqual([]);
      await store.appendEvents(['{"type":"a"}', '{"type":"b"}']);
      await store.appendEvents([]);
      await store.appendEvents(['{"type":"c"}']);
      expect(await store.readEvents()).toEqual(['{"type":"a"}', '{"type":"b"}', '{"type":"c"}']);
      await fixture.tearEvents(store, '{"type":"d", "no');
      expect(await store.readEvents()).toEqual(['{"type":"a"}', '{"type":"b"}', '{"type":"c"}']);
      await store.appendEvents(['{"type":"e"}']);
      expect(await store.readEvents()).toEqual(['{"type":"a"}', '{"type":"b"}', '{"type":"c"}', '{"type":"e"}']);
    }));

  it('appends interview records in order', () =>
    withFixture(factory, async (fixture) => {
      const { store } = fixture;
      await store.create(sampleManifest(store.runId), undefined);
      await store.appendInterview('{"q":1}');
      await store.appendInterview('{"q":2}');
      expect(await store.readInterviews()).toEqual(['{"q":1}', '{"q":2}']);
    }));

  it('stores, replaces and removes the pending questions and answers documents', () =>
    withFixture(factory, async ({ store }) => {
      await store.create(sampleManifest(store.runId), undefined);
      expect(await store.readPendingQuestions()).toBeUndefined();
      expect(await store.readAnswers()).toBeUndefined();
      const pending = { format: 'orchestra.pending/1', questions: [{ id: 'gate', note: 'any JSON' }] };
      await store.writePendingQuestions(pending);
      await store.writeAnswers({ format: 'orchestra.answers/1', answers: { gate: { value: 'Y' } } });
      pending.questions.push({ id: 'changed after the write', note: '' });
      expect(await store.readPendingQuestions()).toEqual({ format: 'orchestra.pending/1', questions: [{ id: 'gate', note: 'any JSON' }] });
      const answers = (await store.readAnswers()) as { answers: Record<string, unknown> };
      expect(answers).toEqual({ format: 'orchestra.answers/1', answers: { gate: { value: 'Y' } } });
      answers.answers.other = 'changed by a reader';
      expect(await store.readAnswers()).toEqual({ format: 'orchestra.answers/1', answers: { gate: { value: 'Y' } } });
      await store.writeAnswers({ format: 'orchestra.answers/1', answers: {} });
      expect(await store.readAnswers()).toEqual({ format: 'orchestra.answers/1', answers: {} });
      await store.writePendingQuestions(undefined);
      await store.writeAnswers(undefined);
      expect(await store.readPendingQuestions()).toBeUndefined();
      expect(await store.readAnswers()).toBeUndefined();
      await store.writeAnswers(undefined); // removing what is not there is fine
    }));
}
