import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expectError, PlanApp, planApp, states } from '../support/plan-app.js';

const apps: PlanApp[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

function served(project?: string): PlanApp {
  const app = planApp(project ? { project } : {});
  apps.push(app);
  return app;
}

describe('a plan outlives its server', () => {
  it('a server shutting down pauses the plan (a pending scoping question is given up); the next server resumes it, asking again', async () => {
    const first = served();
    await first.post('/plan', { intent: 'make the book better', simulate: true });
    await first.post('/plan/start');
    await first.until((p) => p.questions.length > 0, 'asked');
    await first.close();
    expect(JSON.parse(readFileSync(join(first.project, '.orchestra', 'plan.json'), 'utf8')).state).toBe('paused');

    const second = served(first.project);
    const plan = (await second.get('/plan')).body;
    expect(plan).toMatchObject({ state: 'paused', active: false, questions: [] });
    // No task has run: the new server cannot tell the plan was simulated until told.
    expect(plan.simulate).toBe(false);
    expectError(await second.post('/plan/resume'), 400, 'ORCH_NO_BACKEND');
    const resumed = await second.post('/plan/resume', { simulate: true });
    expect(resumed.body).toMatchObject({ state: 'running', active: true, simulate: true });
    const asking = await second.until((p) => p.questions.length > 0, 'asked again');
    await second.post(`/plan/questions/${asking.questions[0].id}/answer`, { answer: 'check scene 2 for continuity errors' });
    const done = await second.until((p) => !p.active, 'ended');
    expect(states(done)).toEqual([['t1', 'done']]);
  });

  it('a new server reads from a plan\'s task runs that they were simulated', async () => {
    const first = served();
    await first.post('/plan', { intent: 'check scene 2 for continuity errors', simulate: true });
    await first.post('/plan/start');
    await first.until((p) => !p.active, 'ended');
    await first.close();
    const second = served(first.project);
    expect((await second.get('/plan')).body).toMatchObject({ state: 'done', simulate: true });
  });
});
