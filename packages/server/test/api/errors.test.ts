import { afterEach, describe, expect, it } from 'vitest';
import { fixture, testServer, type TestServer } from '../support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TOOLS_DOT = `digraph T {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  list [shape=parallelogram, tool_command="ls"]
  start -> list -> exit
}`;

describe('bad input gets a JSON error with a stable code', () => {
  it('invalid DOT: 400 with the diagnostics and their file:line:col', async () => {
    server = await testServer();
    const reply = await server.post('/pipelines', { source: 'digraph P {\n  start [shape=Mdiamond]\n  start -> \n}', file: 'broken.dot', simulate: true });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('ORCH_INVALID_PIPELINE');
    expect(reply.body.error.message).toContain('broken.dot is not a valid pipeline');
    expect(reply.body.error.diagnostics[0]).toMatchObject({ file: 'broken.dot', line: 4, column: 1, severity: 'error', rule: 'syntax' });
    const lint = await server.post('/pipelines', { source: 'digraph P { a -> b }', simulate: true });
    expect(lint.status).toBe(400);
    expect(lint.body.error.diagnostics.map((d: { rule: string }) => d.rule)).toContain('start_node');
    // Nothing was created.
    expect((await server.get('/pipelines')).body.runs).toEqual([]);
  });

  it('a body that is not what the endpoint takes: 400, 415 or 413', async () => {
    server = await testServer({ maxBodyBytes: 2048 });
    const notJson = await fetch(`${server.url}/pipelines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"source": ' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as any).error.code).toBe('ORCH_BAD_REQUEST');
    const text = await fetch(`${server.url}/pipelines`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'digraph {}' });
    expect(text.status).toBe(415);
    const unknownField = await server.post('/pipelines', { source: fixture('simple.dot'), simulate: true, shell: 'rm -rf /' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.message).toMatch(/shell/);
    const wrongType = await server.post('/pipelines', { source: fixture('simple.dot'), simulate: 'yes' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toMatch(/^body at simulate:/);
    const big = await server.post('/pipelines', { source: `digraph P { ${'a -> b '.repeat(400)} }` });
    expect(big.status).toBe(413);
    expect(big.body.error.code).toBe('ORCH_BODY_TOO_LARGE');
    const badLastId = await fetch(`${server.url}/pipelines/x/events`, { headers: { 'last-event-id': 'abc' } });
    expect(badLastId.status).toBe(400);
  });

  it('unknown runs, questions and endpoints: 404; ids that try to leave the runs directory are refused', async () => {
    server = await testServer();
    for (const path of ['/pipelines/nope', '/pipelines/nope/events', '/pipelines/nope/graph', '/pipelines/nope/questions', '/pipelines/nope/checkpoint', '/pipelines/nope/context']) {
      const reply = await fetch(server.url + path);
      expect(reply.status, path).toBe(404);
      expect(((await reply.json()) as any).error.code, path).toBe('ORCH_RUN_NOT_FOUND');
    }
    expect((await server.post('/pipelines/nope/cancel')).status).toBe(404);
    expect((await server.post('/pipelines/nope/resume')).status).toBe(404);
    expect((await server.post('/pipelines/nope/questions/q.1/answer', { answer: 'x' })).status).toBe(404);
    const escape = await fetch(`${server.url}/pipelines/..%2F..%2Fetc`);
    expect(escape.status).toBe(400);
    const dotdot = await server.get('/pipelines/a..b');
    expect(dotdot.status).toBe(404);
    const endpoint = await server.get('/nothing-here');
    expect(endpoint.status).toBe(404);
    expect(endpoint.body.error.code).toBe('ORCH_NOT_FOUND');
  });

  it('answering a question that is not pending: 409; an answer that fits no option: 400 and the question stays', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    const question = await server.question(id);
    const wrong = await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'Maybe' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ code: 'ORCH_BAD_ANSWER' });
    expect(wrong.body.error.message).toContain('A (Approve), F (Fix)');
    const other = await server.post(`/pipelines/${id}/questions/review_gate.99/answer`, { answer: 'A' });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('ORCH_NOT_PENDING');
    expect(other.body.error.message).toContain(question.id);
    expect((await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'A' })).status).toBe(200);
    const twice = await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'A' });
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('ORCH_NOT_PENDING');
  });

  it('a pipeline with LLM stages and no model configured: 400 saying what to set', async () => {
    server = await testServer();
    const reply = await server.post('/pipelines', { source: fixture('simple.dot') });
    expect(reply.status).toBe(400);
    expect(reply.body.error.code).toBe('ORCH_NO_BACKEND');
    expect(reply.body.error.message).toMatch(/simulate/);
    const both = await server.post('/pipelines', { source: fixture('simple.dot'), simulate: true, model: 'gpt' });
    expect(both.status).toBe(400);
  });
});

describe('security', () => {
  it('refuses pipelines that run commands unless the server allows tools', async () => {
    server = await testServer();
    const refused = await server.post('/pipelines', { source: TOOLS_DOT, file: 'tools.dot', simulate: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ORCH_TOOLS_REFUSED');
    expect(refused.body.error.message).toContain('--allow-tools');
    expect(refused.body.error.uses).toEqual([{ node_id: 'list', what: 'node list (tool)', file: 'tools.dot', line: 4, column: 3 }]);
    const hooks = await server.post('/pipelines', { source: fixture('simple.dot').replace('digraph Simple {', 'digraph Simple {\n  graph ["tool_hooks.pre"="touch /tmp/x"]'), simulate: true });
    expect(hooks.status, JSON.stringify(hooks.body)).toBe(403);
    await server.close();
    server = await testServer({ allowTools: true });
    const allowed = await server.post('/pipelines', { source: TOOLS_DOT, simulate: true });
    expect(allowed.status).toBe(201);
    await server.state(allowed.body.id, 'completed');
  });

  it('with a token: every API request needs it (header, or the cookie for GET only); the page itself does not', async () => {
    const token = 'a-token-of-sufficient-length';
    server = await testServer({ token });
    const bare = await fetch(`${server.url}/pipelines`);
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await bare.json()) as any).error.code).toBe('ORCH_UNAUTHORIZED');
    const wrong = await fetch(`${server.url}/pipelines`, { headers: { authorization: 'Bearer nope-nope-nope-nope' } });
    expect(wrong.status).toBe(401);
    expect((await server.get('/pipelines')).status).toBe(200);
    const cookieGet = await fetch(`${server.url}/pipelines`, { headers: { cookie: `orchestra_token=${token}` } });
    expect(cookieGet.status).toBe(200);
    // A cookie is never enough to change anything (a cross-site form would carry it).
    const cookiePost = await fetch(`${server.url}/pipelines`, { method: 'POST', headers: { cookie: `orchestra_token=${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ source: fixture('human-gate.dot'), simulate: true }) });
    expect(cookiePost.status).toBe(401);
    const validate = await fetch(`${server.url}/validate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"source":"digraph {}"}' });
    expect(validate.status).toBe(401);
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('sends no CORS headers unless an origin is allowed, and then only for it', async () => {
    server = await testServer();
    const plain = await fetch(`${server.url}/pipelines`, { headers: { origin: 'https://evil.example' } });
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
    await server.close();
    server = await testServer({ corsOrigin: 'https://app.example' });
    const allowed = await fetch(`${server.url}/pipelines`, { headers: { origin: 'https://app.example' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const preflight = await fetch(`${server.url}/pipelines`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    const other = await fetch(`${server.url}/pipelines`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).not.toBe('https://evil.example');
  });

  it('validates DOT for the page: diagnostics with positions, nothing run', async () => {
    server = await testServer();
    const reply = await server.post('/validate', { source: 'digraph P {\n  start [shape=Mdiamond]\n  start -> work\n}', file: 'p.dot' });
    expect(reply.status).toBe(200);
    expect(reply.body.ok).toBe(false);
    expect(reply.body.diagnostics).toEqual([
      expect.objectContaining({ file: 'p.dot', line: 1, column: 1, severity: 'error', rule: 'terminal_node' }),
      expect.objectContaining({ file: 'p.dot', line: 3, column: 12, severity: 'warning', rule: 'prompt_on_llm_nodes', node_id: 'work' }),
    ]);
    expect((await server.get('/pipelines')).body.runs).toEqual([]);
    expect((await server.post('/validate', { source: fixture('human-gate.dot') })).body).toEqual({ ok: true, diagnostics: [] });
  });
});
