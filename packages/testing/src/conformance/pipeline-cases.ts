import { resumePipeline, runPipeline, type RunEvent, type RunStore } from '@orchestra/core';
import { RecordedAnswersInterviewer, recordAnswer } from '@orchestra/core/human';
import { readPendingQuestions, restore } from '@orchestra/core/store';
import { expect, it } from 'vitest';
import type { RunStoreFactory } from './fixture.js';
import { withFixture } from './with-fixture.js';
import { GATE_PIPELINE, TALLY_PIPELINE, graphOf, sampleRegistry } from './sample-pipelines.js';

/** The state a store's records restore to (what resume would continue from). */
async function restoredState(store: RunStore) {
  const { entries, torn, problem } = await store.readJournal();
  expect({ torn, problem }).toEqual({ torn: false, problem: undefined });
  return restore(await store.readCheckpoint(), entries, (await store.readManifest()).start_node);
}

/** Cases that drive real pipelines through the store. */
export function pipelineCases<S extends RunStore>(factory: RunStoreFactory<S>): void {
  it('restores an interrupted and resumed run to the state of an uninterrupted one', async () => {
    const whole = await factory();
    const interrupted = await factory();
    try {
      const registry = sampleRegistry();
      const graph = graphOf(TALLY_PIPELINE, registry);
      const common = { registry, source: TALLY_PIPELINE, random: () => 0, checkpointIntervalMs: 60_000 };

      const straight = await runPipeline(graph, { ...common, store: whole.store });
      expect(straight.status).toBe('success');
      expect(straight.completedNodes).toEqual(['start', 'a', 'b', 'check', 'c', 'report', 'exit']);

      const controller = new AbortController();
      let completed = 0;
      const onEvent = (event: RunEvent) => {
        if (event.type === 'stage.completed' && ++completed === 3) controller.abort('stop here');
      };
      const stopped = await runPipeline(graph, { ...common, store: interrupted.store, signal: controller.signal, onEvent });
      expect(stopped.status).toBe('interrupted');
      expect(stopped.completedNodes).toEqual(['start', 'a', 'b']);
      expect((await interrupted.store.readCheckpoint())?.status).toBe('interrupted');
      expect(await interrupted.store.leaseHolder()).toBeUndefined();

      const resumed = await resumePipeline(interrupted.store, { registry, random: () => 0 });
      expect(resumed.status).toBe('success');
      expect(resumed.completedNodes).toEqual(straight.completedNodes);
      expect(resumed.context).toEqual(straight.context);
      expect(resumed.context['tally.total']).toBe(3);

      const expected = await restoredState(whole.store);
      const actual = await restoredState(interrupted.store);
      expect(actual.state).toEqual(expected.state);
      expect(actual.context).toEqual(expected.context);
      expect(actual.logs).toEqual(expected.logs);
      expect(expected.state).toMatchObject({ status: 'completed', nextNode: null, completedNodes: straight.completedNodes });
      expect(expected.context).toEqual(straight.context);
    } finally {
      await whole.cleanup();
      await interrupted.cleanup();
    }
  });

  it('parks at a human gate; a recorded answer resumes it on the chosen branch', () =>
    withFixture(factory, async (fixture) => {
      const { store } = fixture;
      const registry = sampleRegistry(new RecordedAnswersInterviewer(store, undefined));
      const parked = await runPipeline(graphOf(GATE_PIPELINE, registry), { registry, store, source: GATE_PIPELINE });
      expect(parked.status).toBe('parked');
      expect(parked.completedNodes).toEqual(['start']);
      expect((await store.readCheckpoint())?.status).toBe('parked');
      expect((await readPendingQuestions(store)).map((p) => [p.id, p.question.options.map((o) => o.key)])).toEqual([['gate', ['Y', 'N']]]);

      expect(await recordAnswer(store, 'Y')).toMatchObject({ id: 'gate', answer: { value: 'Y' }, replaced: false });
      expect(await recordAnswer(store, 'N')).toMatch(/^gate already has an answer/);

      const resumed = await resumePipeline(store, { registry });
      expect(resumed.status).toBe('success');
      expect(resumed.completedNodes).toEqual(['start', 'gate', 'yes', 'exit']);
      expect(await readPendingQuestions(store)).toEqual([]);
      expect(await recordAnswer(store, 'N')).toMatch(/is not waiting for an answer/);
      const interviews = (await store.readInterviews()).map((line) => JSON.parse(line) as { nodeId: string; answerValue: string });
      expect(interviews).toEqual([expect.objectContaining({ nodeId: 'gate', answerValue: 'Y' })]);
    }));
}
