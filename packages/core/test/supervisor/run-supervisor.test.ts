import { readFileSync } from 'node:fs';
import { MemoryRunCatalogue } from '@orchestra/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  RunRefusal,
  RunSupervisor,
  guardedSetup,
  simulationBackend,
  type CodergenBackend,
  type LoggedEvent,
  type RunSetupHook,
} from '../../src/index.js';
import { fixturePath } from '../helpers.js';

const catalogues: MemoryRunCatalogue[] = [];
afterEach(() => {
  for (const c of catalogues.splice(0)) c.dispose();
});

function supervisor(setup?: RunSetupHook): { runs: RunSupervisor; catalogue: MemoryRunCatalogue } {
  const catalogue = new MemoryRunCatalogue();
  catalogues.push(catalogue);
  return { runs: new RunSupervisor({ catalogue, checkpointIntervalMs: 0, ...(setup ? { setup } : {}) }), catalogue };
}

const fixture = (name: string) => readFileSync(fixturePath(name), 'utf8');
const simulated = { options: { simulate: true } };

/** An LLM backend whose stages wait until the run is stopped. */
const waitingBackend: CodergenBackend = {
  run: ({ signal }) =>
    new Promise((_resolve, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    }),
};

async function thrown(promise: Promise<unknown>): Promise<RunRefusal> {
  try {
    await promise;
  } catch (error) {
    return error as RunRefusal;
  }
  throw new Error('expected a refusal');
}

describe('RunSupervisor', () => {
  it('starts a run in its catalogue, and lists it, reports it and replays its events once it has ended', async () => {
    const { runs, catalogue } = supervisor();
    const run = await runs.start({ source: fixture('branching.dot'), file: 'branching.dot', ...simulated });
    expect((await run.done).status).toBe('success');
    expect(run.store.location).toBe(`${catalogue.location}/${run.id}`);
    const view = await runs.view(run.id);
    expect(view).toMatchObject({ live: false, questions: [], report: { state: 'completed', manifest: { pipeline: 'Branch', run_options: { simulate: true } } } });
    expect((await runs.list()).map((r) => r.id)).toEqual([run.id]);
    const log = await runs.events(run.id);
    const replayed: LoggedEvent[] = [];
    log.follow(0, { event: (e) => replayed.push(e), end: () => {} });
    expect(replayed[0]).toMatchObject({ id: 1, type: 'pipeline.started' });
    expect(replayed.at(-1)).toMatchObject({ type: 'pipeline.completed' });
  });

  it('holds a question until it is answered; a wrong answer or one to a question not pending is refused', async () => {
    const { runs } = supervisor();
    const run = await runs.start({ source: fixture('human-gate.dot'), ...simulated });
    await expect.poll(async () => (await runs.questions(run.id)).length).toBe(1);
    const [question] = await runs.questions(run.id);
    expect(question).toMatchObject({ id: 'review_gate.1', source: 'live', question: { stage: 'review_gate' } });
    expect(await thrown(runs.answer(run.id, 'review_gate.1', 'Maybe'))).toMatchObject({ code: 'ORCH_BAD_ANSWER' });
    expect(await thrown(runs.answer(run.id, 'review_gate.7', 'A'))).toMatchObject({ code: 'ORCH_NOT_PENDING' });
    expect(await runs.answer(run.id, 'review_gate.1', 'A')).toEqual({ id: 'review_gate.1', value: 'A', key: 'A', label: 'Approve', resumed: false });
    expect((await run.done).completedNodes).toEqual(['start', 'review_gate', 'ship_it', 'exit']);
    expect(await thrown(runs.answer(run.id, 'review_gate.1', 'A'))).toMatchObject({ code: 'ORCH_NOT_PENDING' });
  });

  it('stopAll parks a run waiting at a gate; answering the parked run records the answer and resumes it', async () => {
    const { runs } = supervisor();
    const run = await runs.start({ source: fixture('human-gate.dot'), ...simulated });
    await expect.poll(async () => (await runs.questions(run.id)).length).toBe(1);
    await runs.stopAll(1000);
    expect(await run.done).toMatchObject({ status: 'parked' });
    expect(runs.isActive(run.id)).toBe(false);
    expect(await runs.questions(run.id)).toEqual([expect.objectContaining({ id: 'review_gate', source: 'parked' })]);
    const answered = await runs.answer(run.id, 'review_gate', 'A');
    expect(answered).toMatchObject({ id: 'review_gate', label: 'Approve', resumed: true });
    await expect.poll(async () => (await runs.view(run.id)).report.state).toBe('completed');
  });

  it('cancels a running run (resumable), refuses what makes no sense, and resumes it to its end', async () => {
    let backend: CodergenBackend = waitingBackend;
    const { runs } = supervisor(async ({ graph }) => ({ backend: graph.name === 'Simple' ? backend : simulationBackend }));
    const run = await runs.start({ source: fixture('simple.dot') });
    expect(await thrown(runs.resume(run.id))).toMatchObject({ code: 'ORCH_RUN_ACTIVE' });
    await runs.cancel(run.id, 'enough');
    expect(await run.done).toMatchObject({ status: 'interrupted' });
    expect((await runs.view(run.id)).report.state).toBe('stopped');
    expect(await thrown(runs.cancel(run.id))).toMatchObject({ code: 'ORCH_RUN_NOT_RUNNING', details: { state: 'stopped' } });
    backend = simulationBackend;
    const resumed = await runs.resume(run.id);
    expect((await resumed.done).status).toBe('success');
    expect(await thrown(runs.resume(run.id))).toMatchObject({ code: 'ORCH_RUN_ENDED', details: { state: 'completed' } });
    const reported = await runs.resume(run.id, { ended: 'report' });
    expect(await reported.done).toMatchObject({ status: 'success', alreadyFinished: true });
  });

  it('a caller that asks the questions itself gets them; one that parks parks', async () => {
    const { runs } = supervisor();
    const asked: string[] = [];
    const choices = [{ key: 'F', label: 'Fix' }, { key: 'A', label: 'Approve' }];
    const asking = await runs.start(
      { source: fixture('human-gate.dot'), ...simulated },
      {
        questions: {
          ask: async (q) => {
            asked.push(q.stage);
            const choice = choices[asked.length - 1] ?? { key: 'A', label: 'Approve' };
            return { value: choice.key, selectedOption: choice };
          },
        },
      },
    );
    // Fix goes back to the gate, which is asked again; Approve ships it.
    expect((await asking.done).completedNodes).toEqual(['start', 'review_gate', 'fixes', 'review_gate', 'ship_it', 'exit']);
    expect(asked).toEqual(['review_gate', 'review_gate']);
    expect(await runs.questions(asking.id)).toEqual([]);
    const parking = await runs.start({ source: fixture('human-gate.dot'), ...simulated }, { questions: 'park' });
    expect(await parking.done).toMatchObject({ status: 'parked' });
  });

  it('guardedSetup refuses pipelines that run commands, LLM stages it has no model for, and invalid pipelines', async () => {
    const { runs } = supervisor(guardedSetup({}));
    const tools = await thrown(runs.start({ source: fixture('tools.dot'), file: 'tools.dot', ...simulated }));
    expect(tools).toBeInstanceOf(RunRefusal);
    expect(tools).toMatchObject({ code: 'ORCH_TOOLS_REFUSED', details: { uses: expect.arrayContaining([expect.objectContaining({ file: 'tools.dot' })]) } });
    expect(await thrown(runs.start({ source: fixture('simple.dot') }))).toMatchObject({ code: 'ORCH_NO_BACKEND' });
    const invalid = await thrown(runs.start({ source: 'digraph X { a -> }', file: 'x.dot', ...simulated }));
    expect(invalid).toMatchObject({ code: 'ORCH_INVALID_PIPELINE', details: { file: 'x.dot', diagnostics: [expect.objectContaining({ severity: 'error' })] } });
    expect(await runs.list()).toEqual([]);
  });

  it('an unknown run is not found', async () => {
    const { runs } = supervisor();
    expect(await thrown(runs.view('nope'))).toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
    expect(await thrown(runs.events('nope'))).toMatchObject({ code: 'ORCH_RUN_NOT_FOUND' });
  });
});
