import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backendOf, expectError, PlanApp, planApp, scriptedBackend, states } from '../support/plan-app.js';

let app: PlanApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const PROPOSAL = {
  tasks: [
    { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] },
    { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] },
    { id: 'vague', description: 'make the book better', deps: [] },
  ],
};

/** The chief proposes PROPOSAL, then no follow-ups; agents answer as the simulation does. */
function scripted() {
  return scriptedBackend((_call, n) => (n === 1 ? JSON.stringify(PROPOSAL) : '{"tasks": []}'));
}

describe('a plan over HTTP: propose, edit, start, run to the end', () => {
  it('the chief proposes (201, saved as proposed, each task routed); GET /plan shows it', async () => {
    const { backend, calls } = scripted();
    app = planApp({ backendFor: backendOf(backend) });
    const reply = await app.post('/plan', { intent: 'Get scene 2 ready for the editor' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ format: 'orchestra.plan/1', intent: 'Get scene 2 ready for the editor', state: 'proposed', active: false, simulate: false, error: null, questions: [] });
    expect(reply.body.tasks.map((t: any) => [t.id, t.state, t.recipe_id, t.deps])).toEqual([
      ['consistency', 'pending', 'analytical_consistency', []],
      ['prose', 'pending', 'analytical_prose', ['consistency']],
      ['vague', 'needs_scoping', null, []],
    ]);
    expect(calls.map((c) => c.role)).toEqual(['chief']);
    expect((await app.get('/plan')).body).toEqual(reply.body);
    const saved = JSON.parse(readFileSync(join(app.project, '.orchestra', 'plan.json'), 'utf8'));
    expect(saved.state).toBe('proposed');
    expect(saved.active).toBeUndefined(); // the server's view is not written to plan.json
  });

  it('edits before starting: PATCH routes the task again, DELETE removes it, move keeps dependencies (409 with moveTask\'s message otherwise)', async () => {
    const { backend } = scripted();
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'Get scene 2 ready' });

    const edited = await app.request('PATCH', '/plan/tasks/vague', { description: 'check scene 1 for continuity errors' });
    expect(edited.status).toBe(200);
    expect(edited.body.tasks[2]).toMatchObject({ id: 'vague', description: 'check scene 1 for continuity errors', state: 'pending', recipe_id: 'analytical_consistency' });

    const refused = await app.post('/plan/tasks/consistency/move', { position: 2 });
    expectError(refused, 409, 'ORCH_PLAN');
    expect(refused.body.error.message).toBe('task consistency cannot go to position 2: it must come after what it depends on and before what depends on it (prose)');
    expect(states((await app.get('/plan')).body).map(([id]) => id)).toEqual(['consistency', 'prose', 'vague']);

    const moved = await app.post('/plan/tasks/vague/move', { position: 1 });
    expect(moved.status).toBe(200);
    expect(states(moved.body).map(([id]) => id)).toEqual(['vague', 'consistency', 'prose']);
    const last = await app.post('/plan/tasks/vague/move', { position: 99 }); // past the end: last
    expect(states(last.body).map(([id]) => id)).toEqual(['consistency', 'prose', 'vague']);

    const needed = await app.request('DELETE', '/plan/tasks/consistency', {});
    expectError(needed, 409, 'ORCH_PLAN');
    expect(needed.body.error.message).toBe('task consistency cannot be removed: prose depends on it (remove that first)');
    const removed = await app.request('DELETE', '/plan/tasks/prose', {});
    expect(removed.status).toBe(200);
    expect(states(removed.body)).toEqual([
      ['consistency', 'pending'],
      ['prose', 'removed'],
      ['vague', 'pending'],
    ]);
    expectError(await app.request('PATCH', '/plan/tasks/prose', { description: 'again' }), 409, 'ORCH_PLAN');
    const saved = JSON.parse(readFileSync(join(app.project, '.orchestra', 'plan.json'), 'utf8'));
    expect(saved.tasks.map((t: any) => [t.id, t.state])).toEqual(states(removed.body));
  });

  it('start approves and runs in the background: every task reaches done, each an ordinary run of the project (GET /pipelines/{run_id}); then edits, start and pause are conflicts', async () => {
    const { backend } = scripted();
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'Get scene 2 ready' });
    await app.request('DELETE', '/plan/tasks/vague', {});
    const started = await app.post('/plan/start');
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ state: 'running', active: true });
    expectError(await app.post('/plan/start'), 409, 'ORCH_PLAN');
    const done = await app.until((p) => !p.active, 'stopped running');
    expect(done.state).toBe('done');
    expect(states(done)).toEqual([
      ['consistency', 'done'],
      ['prose', 'done'],
      ['vague', 'removed'],
    ]);
    const list = (await app.get('/pipelines')).body.runs;
    for (const task of done.tasks.filter((t: any) => t.state === 'done')) {
      expect(existsSync(join(app.project, '.orchestra', 'runs', task.run_id, 'manifest.json'))).toBe(true);
      const run = await app.get(`/pipelines/${task.run_id}`);
      expect(run.status).toBe(200);
      expect(run.body).toMatchObject({ state: 'completed', pipeline: `recipe_${task.recipe_id}`, live: false });
      expect(list.map((r: any) => r.id)).toContain(task.run_id);
    }
    expectError(await app.request('PATCH', '/plan/tasks/consistency', { description: 'x' }), 409, 'ORCH_PLAN');
    expectError(await app.post('/plan/tasks/consistency/move', { position: 2 }), 409, 'ORCH_PLAN');
    expectError(await app.post('/plan/start'), 409, 'ORCH_PLAN');
    expectError(await app.post('/plan/pause'), 409, 'ORCH_PLAN');
    expectError(await app.post('/plan/resume'), 409, 'ORCH_PLAN');
    expectError(await app.post('/plan/tasks/consistency/force'), 409, 'ORCH_PLAN');
    // An ended plan is replaced by the next proposal.
    const next = await app.post('/plan', { intent: 'check scene 1 for continuity errors', simulate: true });
    expect(next.status).toBe(201);
    expect(states(next.body)).toEqual([['t1', 'pending']]);
  });

  it('a simulated plan (the simulation plans too: the intent is its one task) runs without any model', async () => {
    app = planApp();
    const proposed = await app.post('/plan', { intent: 'check scene 2 for continuity errors', simulate: true });
    expect(proposed.body).toMatchObject({ simulate: true, tasks: [{ id: 't1', recipe_id: 'analytical_consistency', initial_args: { scene_number: '2' } }] });
    await app.post('/plan/start');
    const done = await app.until((p) => !p.active, 'stopped running');
    expect(done.state).toBe('done');
    const manifest = JSON.parse(readFileSync(join(app.project, '.orchestra', 'runs', done.tasks[0].run_id, 'manifest.json'), 'utf8'));
    expect(manifest.run_options).toMatchObject({ simulate: true });
  });

  it('a plan written to plan.json elsewhere is served too; start {"simulate": true} runs it without a model (default: as proposed)', async () => {
    app = planApp();
    const task = (id: string, description: string, recipe: string | null, deps: string[] = []) => ({ id, description, deps, dod: [], state: recipe ? 'pending' : 'needs_scoping', recipe_id: recipe, initial_args: {}, run_id: null, findings: null, forced: false });
    const now = new Date().toISOString();
    mkdirSync(join(app.project, '.orchestra'), { recursive: true });
    writeFileSync(
      join(app.project, '.orchestra', 'plan.json'),
      JSON.stringify({ format: 'orchestra.plan/1', intent: 'Get scene 2 ready', project: app.project, created_at: now, updated_at: now, state: 'proposed', tasks: [task('consistency', 'check scene 2 for continuity errors', 'analytical_consistency'), task('prose', 'review the prose and pacing of scene 2', 'analytical_prose', ['consistency'])] }),
    );
    expect((await app.get('/plan')).body).toMatchObject({ state: 'proposed', simulate: false });
    expectError(await app.post('/plan/start'), 400, 'ORCH_NO_BACKEND'); // not known to be simulated: the server's model, which it has not
    const started = await app.post('/plan/start', { simulate: true });
    expect(started.body).toMatchObject({ state: 'running', simulate: true });
    const done = await app.until((p) => !p.active, 'ended');
    expect(states(done)).toEqual([
      ['consistency', 'done'],
      ['prose', 'done'],
    ]);
  });

  it('a plan running here is not replaced: POST /plan is 409 while it runs', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { backend } = scriptedBackend(
      (_c, n) => (n === 1 ? JSON.stringify({ tasks: [PROPOSAL.tasks[0]] }) : '{"tasks": []}'),
      async (call) => {
        await held;
        return /JSON/.test(call.prompt) ? '{"pass": true, "findings": []}' : 'ok';
      },
    );
    app = planApp({ backendFor: backendOf(backend) });
    await app.post('/plan', { intent: 'x' });
    await app.post('/plan/start');
    const refused = await app.post('/plan', { intent: 'something else', simulate: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain('running');
    release();
    const ended = await app.until((p) => !p.active, 'ended');
    expect(ended.state, JSON.stringify(ended.tasks)).toBe('done');
  });
});
