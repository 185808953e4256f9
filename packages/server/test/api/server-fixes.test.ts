import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { orchestra } from '../support/cli.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SseClient } from '../support/sse-client.js';
import { fixture, testServer, type TestServer } from '../support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const AGAIN = `digraph Again {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  ask [shape=hexagon, label="Again?"]
  start -> ask
  ask -> exit [label="[D] Done"]
  ask -> ask [label="[A] Again", loop_restart=true]
}`;

describe('server runs, further', { timeout: 30_000 }, () => {
  it('a gate with human.timeout takes its default when nobody answers in time', async () => {
    server = await testServer();
    const source = fixture('human-gate.dot').replace('type="wait.human"', 'type="wait.human", human.timeout="300ms", human.default_choice=fixes');
    const id = await server.start(source.replace('fixes -> review_gate', 'fixes -> exit'));
    const question = await server.question(id);
    expect(question).toMatchObject({ timeout_ms: 300, default: 'F' });
    const done = await server.state(id, 'completed');
    expect(done.completed_nodes).toEqual(['start', 'review_gate', 'fixes', 'exit']);
    const late = await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'A' });
    expect(late.status).toBe(409);
  });

  it('a client that connects while a question waits gets the pending questions at once', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    const question = await server.question(id);
    const stream = await SseClient.open(`${server.url}/pipelines/${id}/events`);
    const events = await stream.until((all) => all.some((e) => e.event === 'questions'));
    const notice = events.find((e) => e.event === 'questions');
    expect(notice?.id).toBeUndefined();
    expect(JSON.parse(notice?.data ?? '{}').questions).toEqual([expect.objectContaining({ id: question.id, node_id: 'review_gate', options: question.options })]);
    stream.close();
  });

  it('a loop_restart goes on as a run of its own: its id, its stream numbered from 1, the first run ended', async () => {
    server = await testServer();
    const first = await server.start(AGAIN);
    const stream = await SseClient.open(`${server.url}/pipelines/${first}/events`);
    const q1 = await server.question(first);
    await server.post(`/pipelines/${first}/questions/${q1.id}/answer`, { answer: 'A' });
    await stream.untilEnd();
    expect(stream.recorded().at(-1)?.event).toBe('pipeline.restarted');
    const old = await server.state(first, 'restarted');
    const second = old.restarted_to_id as string;
    expect(second).toBe(`${first}-restart-1`);
    const q2 = await server.question(second);
    expect(q2.node_id).toBe('ask');
    expect((await server.get(`/pipelines/${first}/questions`)).body.questions).toEqual([]);
    const follow = await SseClient.open(`${server.url}/pipelines/${second}/events`);
    await follow.until((all) => all.some((e) => e.event === 'interview.started'));
    expect(follow.recorded()[0]).toMatchObject({ id: '1', event: 'pipeline.started' });
    // The run is driven here under its new id: cancel and resume reach it.
    const cancelled = await server.post(`/pipelines/${second}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('stopped');
    await server.post(`/pipelines/${second}/resume`);
    let q3 = await server.question(second);
    while (q3.id === q2.id) q3 = await server.question(second);
    await server.post(`/pipelines/${second}/questions/${q3.id}/answer`, { answer: 'D' });
    await server.state(second, 'completed');
    const listed = (await server.get('/pipelines')).body.runs.map((r: { id: string; state: string }) => [r.id, r.state]);
    expect(listed).toEqual([
      [second, 'completed'],
      [first, 'restarted'],
    ]);
    // The new run (another id) numbers its questions from its own events, before and after a cancel and resume: no id comes back.
    expect(q2.id).toBe('ask.1');
    expect(q3.id).toBe('ask.2');
  });

  it('a run with damaged files: 422 with the problem, from every endpoint that reads it', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    await server.question(id);
    await server.post(`/pipelines/${id}/cancel`);
    writeFileSync(join(server.runsDir, id, 'checkpoint.json'), '{"format": ');
    for (const path of [`/pipelines/${id}`, `/pipelines/${id}/checkpoint`, `/pipelines/${id}/context`, `/pipelines/${id}/graph`]) {
      const reply = await fetch(server.url + path);
      expect(reply.status, path).toBe(422);
      expect(((await reply.json()) as any).error.message, path).toContain('checkpoint.json');
    }
    const listed = (await server.get('/pipelines')).body.runs;
    expect(listed).toEqual([expect.objectContaining({ id, state: 'unreadable', error: expect.stringContaining('checkpoint.json') })]);
  });

  it('refuses LLM stages that would get tools, and files named by path, unless tools are allowed', async () => {
    server = await testServer({ backendFor: async () => undefined });
    const base = fixture('simple.dot');
    const cases: [string, string][] = [
      ['agent.backend=agent', 'agent.backend=agent'],
      ['agent.backend=cli', 'agent.backend=cli'],
      ['agent.tools="run_command"', 'attribute agent.tools'],
      ['output.schema="/etc/passwd"', 'attribute output.schema'],
      ['output.checks="checks.json"', 'attribute output.checks'],
    ];
    for (const [attr, what] of cases) {
      const source = base.replace(/(\w+) \[label="([^"]*)", prompt=/, `$1 [${attr}, label="$2", prompt=`);
      expect(source, attr).not.toBe(base);
      const reply = await server.post('/pipelines', { source });
      expect(reply.status, attr).toBe(403);
      expect(reply.body.error.message, attr).toContain(what);
    }
    // A schema registered in code names no file.
    const zod = await server.post('/pipelines', { source: base.replace(/(\w+) \[label=/, '$1 [output.schema="zod:plan", label='), simulate: true });
    expect(zod.status, JSON.stringify(zod.body)).not.toBe(403);
  });

  it('with tools allowed, files a pipeline names are checked before it runs, relative to the working directory', async () => {
    server = await testServer({ allowTools: true, workdir: '/nonexistent-orchestra-dir' });
    const source = fixture('simple.dot').replace(/(\w+) \[label=/, '$1 [output.schema="missing.json", label=');
    const reply = await server.post('/pipelines', { source, simulate: true });
    expect(reply.status).toBe(400);
    expect(reply.body.error.diagnostics).toEqual(expect.arrayContaining([expect.objectContaining({ rule: 'output_files', file: 'pipeline.dot' })]));
  });

  it('a run the CLI parked with a tool node is not resumed here without --allow-tools, and the answer is not recorded', async () => {
    server = await testServer();
    const dir = join(server.runsDir, 'parked-tool');
    const source = `digraph T {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  ok [shape=hexagon, label="Go?"]\n  touch [shape=parallelogram, tool_command="echo ran > ran.txt"]\n  start -> ok\n  ok -> touch [label="[Y] Yes"]\n  touch -> exit\n}\n`;
    writeFileSync(join(server.runsDir, 'tool.dot'), source);
    const parked = orchestra('run', join(server.runsDir, 'tool.dot'), '--park', '--logs-dir', dir);
    expect(parked.code).toBe(3);
    const refused = await server.post('/pipelines/parked-tool/questions/ok/answer', { answer: 'Y' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'ORCH_TOOLS_REFUSED', uses: [expect.objectContaining({ node_id: 'touch' })] });
    expect(existsSync(join(dir, 'answers.json'))).toBe(false);
    expect((await server.get('/pipelines/parked-tool/questions')).body.questions).toEqual([expect.objectContaining({ id: 'ok', source: 'parked' })]);
    expect((await server.post('/pipelines/parked-tool/resume')).status).toBe(403);
  });

  it('a client claiming events not recorded yet gets none of them twice', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    const question = await server.question(id);
    const recorded = (await server.get(`/pipelines/${id}`)).body;
    expect(recorded.state).toBe('running');
    const lines = readFileSync(join(server.runsDir, id, 'events.jsonl'), 'utf8').trim().split('\n').length;
    const ahead = lines + 3;
    const stream = await SseClient.open(`${server.url}/pipelines/${id}/events?after=${ahead}`);
    await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'A' });
    await stream.untilEnd();
    const ids = stream.recorded().map((e) => Number(e.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(ids.every((n) => n > ahead)).toBe(true);
  });
});
