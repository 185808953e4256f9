import { afterEach, describe, expect, it } from 'vitest';
import { backendOf, expectError, PlanApp, planApp, scriptedBackend, states } from '../support/plan-app.js';

let app: PlanApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const CONSISTENCY = { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] };
const PROSE = { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] };

/** What an agent answers when it succeeds: JSON when asked for it (checks pass), else text. */
function fine(prompt: string): string {
  return /JSON/.test(prompt) ? '{"pass": true, "findings": []}' : 'ok';
}

describe('the questions of a plan, answered over HTTP', () => {
  it('a scoping question is listed in GET /plan (id, task, text, type, options) and its answer routes the task', async () => {
    app = planApp();
    await app.post('/plan', { intent: 'make the book better', simulate: true });
    expect(states((await app.get('/plan')).body)).toEqual([['t1', 'needs_scoping']]);
    await app.post('/plan/start');
    const asking = await app.until((p) => p.questions.length > 0, 'asked');
    expect(asking.questions).toEqual([
      expect.objectContaining({ id: 'plan.1', task: 't1', run_id: null, type: 'FREEFORM', options: [], source: 'live', text: expect.stringContaining('No recipe takes "make the book better"') }),
    ]);
    expectError(await app.post('/plan/questions/plan.9/answer', { answer: 'x' }), 409, 'ORCH_NOT_PENDING');
    expectError(await app.post('/plan/questions/t1.review.1/answer', { answer: 'x' }), 409, 'ORCH_NOT_PENDING');
    const answered = await app.post('/plan/questions/plan.1/answer', { answer: 'check scene 2 for continuity errors' });
    expect(answered).toEqual({ status: 200, body: { id: 'plan.1', value: 'check scene 2 for continuity errors' } });
    const done = await app.until((p) => !p.active, 'ended');
    expect(done.state).toBe('done');
    expect(done.tasks[0]).toMatchObject({ state: 'done', recipe_id: 'analytical_consistency', answer: 'check scene 2 for continuity errors' });
    expect(done.questions).toEqual([]);
    expectError(await app.post('/plan/questions/plan.1/answer', { answer: 'again' }), 409, 'ORCH_NOT_PENDING');
  });

  it('a follow-up proposal is a yes/no question: an answer that fits neither is 400 (it keeps waiting), yes adds the task, which runs', async () => {
    const { backend } = scriptedBackend(
      (call, n) => (n === 1 ? JSON.stringify({ tasks: [CONSISTENCY] }) : call.prompt.includes('Findings') && n === 2 ? JSON.stringify({ tasks: [{ id: 'fix', description: 'review the prose and pacing of scene 2', deps: [] }] }) : '{"tasks": []}'),
      (call) => (/JSON/.test(call.prompt) ? (call.prompt.includes('review the prose') ? '{"pass": true, "findings": []}' : '{"pass": false}') : 'ok'),
    );
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'Get scene 2 ready' });
    await app.post('/plan/start');
    const asking = await app.until((p) => p.questions.length > 0, 'proposed a follow-up');
    const [question] = asking.questions;
    expect(question).toMatchObject({ task: 'fix', type: 'YES_NO', run_id: null });
    expect(question.text).toBe('The chief proposes a follow-up to consistency: review the prose and pacing of scene 2. Add it to the plan?');
    expect(asking.tasks[0]).toMatchObject({ state: 'failed' });
    expect(asking.tasks[0].findings).toBeGreaterThan(0);
    expectError(await app.post(`/plan/questions/${question.id}/answer`, { answer: 'maybe' }), 400, 'ORCH_BAD_ANSWER');
    expect((await app.get('/plan')).body.questions.map((q: any) => q.id)).toEqual([question.id]);
    expect((await app.post(`/plan/questions/${question.id}/answer`, { answer: 'yes' })).status).toBe(200);
    const ended = await app.until((p) => !p.active, 'ended');
    expect(ended.tasks.map((t: any) => [t.id, t.state, t.follow_up_of ?? null])).toEqual([
      ['consistency', 'failed', null],
      ['fix', 'done', 'consistency'],
    ]);
  });

  it("a recipe gate of a task's run is listed as <task>.<question> with its options; pause stops the plan there, resume asks it again, the answer lets the run go on", async () => {
    let failing = true;
    const { backend } = scriptedBackend(
      (_c, n) => (n === 1 ? JSON.stringify({ tasks: [CONSISTENCY, PROSE] }) : '{"tasks": []}'),
      (call) => {
        if (failing) throw new Error('the model is down');
        return fine(call.prompt);
      },
    );
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'Get scene 2 ready' });
    await app.post('/plan/start');
    const asking = await app.until((p) => p.questions.length > 0, 'asked at a gate');
    const [gate] = asking.questions;
    const runId = asking.tasks[0].run_id;
    expect(gate).toMatchObject({ task: 'consistency', run_id: runId, type: 'MULTIPLE_CHOICE', options: [{ key: 'X', label: 'Stop' }, { key: 'R', label: 'Retry' }, { key: 'S', label: 'Skip' }] });
    expect(gate.id).toMatch(/^consistency\.\w+_failed\.1$/);
    // The run's own questions are the same (the run page shows them).
    expect((await app.get(`/pipelines/${runId}/questions`)).body.questions.map((q: any) => `consistency.${q.id}`)).toEqual([gate.id]);
    expectError(await app.post(`/plan/questions/${gate.id}/answer`, { answer: 'Z' }), 400, 'ORCH_BAD_ANSWER');

    const paused = await app.post('/plan/pause');
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ state: 'paused', active: false, questions: [], error: null });
    expect(states(paused.body)).toEqual([
      ['consistency', 'running'],
      ['prose', 'pending'],
    ]);
    expect((await app.get(`/pipelines/${runId}`)).body).toMatchObject({ state: 'stopped', live: false });
    expectError(await app.post('/plan/pause'), 409, 'ORCH_PLAN');
    expectError(await app.post(`/plan/questions/${gate.id}/answer`, { answer: 'R' }), 409, 'ORCH_NOT_PENDING');

    failing = false;
    const resumed = await app.post('/plan/resume', {});
    expect(resumed.body).toMatchObject({ state: 'running', active: true });
    const again = await app.until((p) => p.questions.length > 0, 'asked again');
    expect(again.questions[0]).toMatchObject({ task: 'consistency', run_id: runId });
    expect(again.questions[0].id).toMatch(/^consistency\.\w+_failed\.2$/);
    expect(await app.post(`/plan/questions/${again.questions[0].id}/answer`, { answer: 'R' })).toMatchObject({ status: 200, body: { value: 'R' } });
    const done = await app.until((p) => !p.active, 'ended');
    expect(done.state).toBe('done');
    expect(done.tasks[0].run_id).toBe(runId); // the same run went on
    expect(states(done)).toEqual([
      ['consistency', 'done'],
      ['prose', 'done'],
    ]);
  });

  it('force starts a blocked task: marked in the running plan, or the ended plan goes on with it', async () => {
    let release!: () => void;
    const other = new Promise<void>((resolve) => (release = resolve));
    const { backend } = scriptedBackend(
      (_c, n) => (n === 1 ? JSON.stringify({ tasks: [CONSISTENCY, PROSE, { id: 'other', description: 'check scene 1 for continuity errors', deps: [] }, { id: 'late', description: 'review the prose and pacing of scene 1', deps: ['consistency'] }] }) : '{"tasks": []}'),
      async (call) => {
        if (call.prompt.includes('scene 2') && call.role === 'continuity') throw new Error('the model is down');
        if (call.prompt.includes('scene 1') && call.role === 'continuity') await other;
        return fine(call.prompt);
      },
    );
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'Get the scenes ready' });
    expectError(await app.post('/plan/tasks/prose/force'), 409, 'ORCH_PLAN'); // not started
    await app.post('/plan/start');
    const gate = (await app.until((p) => p.questions.length > 0, 'asked at a gate')).questions[0];
    await app.post(`/plan/questions/${gate.id}/answer`, { answer: 'X' }); // stop: the task fails
    const blocked = await app.until((p) => p.tasks[2].state === 'running', 'ran the other task');
    expect(states(blocked)).toEqual([
      ['consistency', 'failed'],
      ['prose', 'blocked'],
      ['other', 'running'],
      ['late', 'blocked'],
    ]);
    expectError(await app.post('/plan/tasks/other/force'), 409, 'ORCH_PLAN'); // not blocked
    const forced = await app.post('/plan/tasks/prose/force');
    expect(forced.status).toBe(200);
    expect(forced.body.tasks[1]).toMatchObject({ id: 'prose', state: 'blocked', forced: true });
    release();
    const ended = await app.until((p) => !p.active && p.tasks[1].state !== 'blocked', 'ended');
    expect(states(ended)).toEqual([
      ['consistency', 'failed'],
      ['prose', 'done'],
      ['other', 'done'],
      ['late', 'blocked'],
    ]);
    expect(ended.state).toBe('failed');
    // The plan has ended: forcing the last blocked task goes on with it.
    const again = await app.post('/plan/tasks/late/force');
    expect(again.body).toMatchObject({ state: 'running', active: true });
    const last = await app.until((p) => !p.active, 'ended again');
    expect(last.tasks[3]).toMatchObject({ state: 'done', forced: true });
  });
});
