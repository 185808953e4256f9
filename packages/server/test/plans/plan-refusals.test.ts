import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerRuns } from '../../src/runs/server-runs.js';
import { expectError, PlanApp, planApp } from '../support/plan-app.js';
import { tempRunsDir } from '../support/test-server.js';

let app: PlanApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** Every plan endpoint, with a body it would take. */
const ENDPOINTS: [string, string, unknown?][] = [
  ['GET', '/plan'],
  ['POST', '/plan', { intent: 'check scene 2 for continuity errors', simulate: true }],
  ['PATCH', '/plan/tasks/t1', { description: 'x' }],
  ['DELETE', '/plan/tasks/t1', {}],
  ['POST', '/plan/tasks/t1/move', { position: 1 }],
  ['POST', '/plan/tasks/t1/force', {}],
  ['POST', '/plan/start', {}],
  ['POST', '/plan/pause', {}],
  ['POST', '/plan/resume', {}],
  ['POST', '/plan/questions/plan.1/answer', { answer: 'x' }],
];

describe('plan endpoints refuse what they cannot serve', () => {
  it('a server without a project: 404 ORCH_NOT_FOUND from every plan endpoint, saying how to serve one', async () => {
    app = new PlanApp(new ServerRuns({ runsDir: tempRunsDir(), checkpointIntervalMs: 0 }), undefined);
    for (const [method, path, body] of ENDPOINTS) {
      const reply = await app.request(method, path, body);
      expectError(reply, 404, 'ORCH_NOT_FOUND');
      expect(reply.body.error.message, `${method} ${path}`).toContain('--project <dir>');
    }
  });

  it('a project served without --allow-tools: 403 ORCH_TOOLS_REFUSED from every plan endpoint (recipes read the project), before the body is read', async () => {
    app = planApp({ allowTools: false });
    for (const [method, path, body] of ENDPOINTS) {
      const reply = await app.request(method, path, body);
      expectError(reply, 403, 'ORCH_TOOLS_REFUSED');
      expect(reply.body.error.message).toContain('--allow-tools');
    }
    expectError(await app.post('/plan', { nonsense: true }), 403, 'ORCH_TOOLS_REFUSED');
  });

  it('no plan yet: 404 naming the plan file; the task, start, pause, resume and answer endpoints likewise', async () => {
    app = planApp();
    const reply = await app.get('/plan');
    expectError(reply, 404, 'ORCH_NOT_FOUND');
    expect(reply.body.error.plan_file).toBe(join(app.project, '.orchestra', 'plan.json'));
    for (const [method, path, body] of ENDPOINTS.slice(2)) expectError(await app.request(method, path, body), 404, 'ORCH_NOT_FOUND');
  });

  it('bodies are checked with zod: 400 ORCH_BAD_REQUEST naming the field; not JSON: 415 or 400', async () => {
    app = planApp();
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/plan', {}, /^body at intent:/],
      ['POST', '/plan', { intent: '   ' }, /intent is empty/],
      ['POST', '/plan', { intent: 'x', simulate: 'yes' }, /^body at simulate:/],
      ['POST', '/plan', { intent: 'x', shell: 'rm -rf /' }, /shell/],
    ];
    for (const [method, path, body, message] of cases) {
      const reply = await app.request(method, path, body);
      expectError(reply, 400, 'ORCH_BAD_REQUEST');
      expect(reply.body.error.message).toMatch(message);
    }
    expectError(await app.request('POST', '/plan', '{"intent": '), 400, 'ORCH_BAD_REQUEST');
    expectError(await app.request('POST', '/plan', 'intent=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'ORCH_BAD_REQUEST');
    expectError(await app.request('DELETE', '/plan/tasks/t1', undefined, { 'content-type': 'text/plain' }), 415, 'ORCH_BAD_REQUEST');

    expect((await app.post('/plan', { intent: 'check scene 2 for continuity errors', simulate: true })).status).toBe(201);
    const taskCases: [string, string, unknown, RegExp][] = [
      ['PATCH', '/plan/tasks/t1', {}, /^body at description:/],
      ['PATCH', '/plan/tasks/t1', { description: '' }, /description is empty/],
      ['POST', '/plan/tasks/t1/move', { position: 0 }, /^body at position:/],
      ['POST', '/plan/tasks/t1/move', { position: '2' }, /^body at position:/],
      ['POST', '/plan/tasks/t1/move', { position: 1.5 }, /^body at position:/],
      ['POST', '/plan/resume', { simulate: 1 }, /^body at simulate:/],
      ['POST', '/plan/start', { simulate: 'yes' }, /^body at simulate:/],
      ['POST', '/plan/start', { force: ['t1'] }, /force/],
      ['POST', '/plan/questions/plan.1/answer', {}, /^body at answer:/],
      ['PATCH', '/plan/tasks/1abc', { description: 'x' }, /^path parameter id:/],
      ['POST', '/plan/questions/..%2Fx/answer', { answer: 'x' }, /^path parameter qid:/],
    ];
    for (const [method, path, body, message] of taskCases) {
      const reply = await app.request(method, path, body);
      expectError(reply, 400, 'ORCH_BAD_REQUEST');
      expect(reply.body.error.message, `${method} ${path}`).toMatch(message);
    }
  });

  it('a task id must be one of the plan\'s: 404 naming its tasks', async () => {
    app = planApp();
    await app.post('/plan', { intent: 'check scene 2 for continuity errors', simulate: true });
    for (const [method, path, body] of [
      ['PATCH', '/plan/tasks/nope', { description: 'x' }],
      ['DELETE', '/plan/tasks/nope', {}],
      ['POST', '/plan/tasks/nope/move', { position: 1 }],
      ['POST', '/plan/tasks/nope/force', {}],
    ] as const) {
      const reply = await app.request(method, path, body);
      expectError(reply, 404, 'ORCH_NOT_FOUND');
      expect(reply.body.error.message).toBe('the plan has no task "nope" (its tasks: t1)');
    }
  });

  it('the Host, Origin and token guards hold for the plan endpoints as for the others', async () => {
    app = planApp({ app: { token: 'a-token-of-sixteen-chars' } });
    expectError(await app.get('/plan'), 401, 'ORCH_UNAUTHORIZED');
    const auth = { authorization: 'Bearer a-token-of-sixteen-chars' };
    expectError(await app.request('GET', '/plan', undefined, auth), 404, 'ORCH_NOT_FOUND');
    expectError(await app.request('POST', '/plan', { intent: 'x' }, { ...auth, origin: 'https://evil.example' }), 403, 'ORCH_ORIGIN_NOT_ALLOWED');
    expectError(await app.request('PATCH', '/plan/tasks/t1', { description: 'x' }, { ...auth, origin: 'https://evil.example' }), 403, 'ORCH_ORIGIN_NOT_ALLOWED');
    expectError(await app.request('GET', '/plan', undefined, { ...auth, host: 'evil.example' }), 421, 'ORCH_HOST_NOT_ALLOWED');
  });

  it('a damaged plan file: 422 with the plans\' code, the file left as it is; proposing over it is refused too', async () => {
    app = planApp();
    mkdirSync(join(app.project, '.orchestra'), { recursive: true });
    writeFileSync(join(app.project, '.orchestra', 'plan.json'), '{"format": "orchestra.plan/1", "tasks": [');
    const reply = await app.get('/plan');
    expect(reply.status).toBe(422);
    expect(reply.body.error.message).toMatch(/plan\.json is damaged \(not JSON: .*\); it was left as it is/);
    expect((await app.post('/plan', { intent: 'x', simulate: true })).status).toBe(422);
    expect((await app.post('/plan/start')).status).toBe(422);
  });

  it('a plan that is not simulated needs the server\'s model: 400 ORCH_NO_BACKEND without one', async () => {
    app = planApp();
    const reply = await app.post('/plan', { intent: 'check scene 2 for continuity errors' });
    expectError(reply, 400, 'ORCH_NO_BACKEND');
    expect(reply.body.error.message).toContain('"simulate": true');
    expectError(await app.get('/plan'), 404, 'ORCH_NOT_FOUND');
  });
});
