import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { orchestra, startOrchestra } from '../support/cli.js';
import { SseClient } from '../support/sse-client.js';
import { FIXTURES, fixture, tempRunsDir, testServer, type TestServer } from '../support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('server runs are ordinary runs', { timeout: 30_000 }, () => {
  it('survive a server restart: a run waiting at a gate parks with its question, the new server lists it, an answer resumes it to the end', async () => {
    const runsDir = tempRunsDir();
    server = await testServer({ runsDir });
    const id = await server.start(fixture('multiple-gates.dot'));
    const first = await server.question(id);
    await server.post(`/pipelines/${id}/questions/${first.id}/answer`, { answer: first.options[0].key });
    const second = await server.question(id);
    expect(second.id).not.toBe(first.id);
    await server.close();

    server = await testServer({ runsDir });
    // The server stopped while the second gate waited: the run parked with that question.
    const listed = await server.get('/pipelines');
    expect(listed.body.runs).toEqual([expect.objectContaining({ id, state: 'parked', live: false, checkpoint_status: 'parked' })]);
    const [parked] = listed.body.runs[0].questions;
    // The first gate is not asked again: the run goes on at the second.
    expect(parked).toMatchObject({ id: second.node_id, node_id: second.node_id, source: 'parked', text: second.text });
    const answered = await server.post(`/pipelines/${id}/questions/${parked.id}/answer`, { answer: second.options[0].key });
    expect(answered.body).toMatchObject({ resumed: true });
    const done = await server.state(id, 'completed');
    expect(done.completed_nodes.filter((n: string) => n === first.node_id)).toHaveLength(1);
    // The stream numbers the whole run, both servers' events.
    const stream = await SseClient.open(`${server.url}/pipelines/${id}/events`);
    await stream.untilEnd();
    const recorded = stream.recorded();
    expect(recorded.map((e) => Number(e.id))).toEqual(recorded.map((_, i) => i + 1));
    expect(recorded.filter((e) => e.event === 'pipeline.started').map((e) => JSON.parse(e.data).resumed)).toEqual([false, true]);
  });

  it('after a restart, POST /resume takes a run the old server started back live: its question is asked again here', async () => {
    const runsDir = tempRunsDir();
    server = await testServer({ runsDir });
    const id = await server.start(fixture('human-gate.dot'));
    await server.question(id);
    await server.close();
    server = await testServer({ runsDir });
    const resumed = await server.post(`/pipelines/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ live: true, state: 'running' });
    const question = await server.question(id);
    expect(question).toMatchObject({ node_id: 'review_gate', source: 'live' });
    await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'A' });
    expect((await server.state(id, 'completed')).completed_nodes).toEqual(['start', 'review_gate', 'ship_it', 'exit']);
  });

  it('a server run works with orchestra status and resume', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    await server.question(id);
    await server.post(`/pipelines/${id}/cancel`);
    const dir = join(server.runsDir, id);
    const status = orchestra('status', dir, '--json');
    expect(status.code).toBe(5);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'stopped', next_node: 'review_gate' });
    // The run recorded how it was started (simulated): resume needs no flags but how to answer.
    const resumed = orchestra('resume', dir, '--auto-approve');
    expect(resumed.stderr).toContain('--simulate');
    expect(resumed.code).toBe(0);
    expect((await server.get(`/pipelines/${id}`)).body).toMatchObject({ state: 'completed', completed_nodes: ['start', 'review_gate', 'ship_it', 'exit'] });
  });

  it('answers a run parked by the CLI through the API, and the server resumes it', async () => {
    server = await testServer();
    const dir = join(server.runsDir, 'parked-run');
    const parked = orchestra('run', join(FIXTURES, 'human-gate.dot'), '--simulate', '--park', '--logs-dir', dir);
    expect(parked.code).toBe(3);
    const summary = (await server.get('/pipelines/parked-run')).body;
    expect(summary).toMatchObject({ state: 'parked', live: false, questions: [expect.objectContaining({ id: 'review_gate', source: 'parked', options: [{ key: 'A', label: 'Approve' }, { key: 'F', label: 'Fix' }] })] });
    expect((await server.post('/pipelines/parked-run/questions/review_gate/answer', { answer: 'nope' })).status).toBe(400);
    const answered = await server.post('/pipelines/parked-run/questions/review_gate/answer', { answer: 'A' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ value: 'A', resumed: true });
    const done = await server.state('parked-run', 'completed');
    expect(done.completed_nodes).toEqual(['start', 'review_gate', 'ship_it', 'exit']);
  });

  it('a run another process drives: shown live from its files, refused with 409 naming the process', async () => {
    server = await testServer();
    const dir = join(server.runsDir, 'held');
    const cli = startOrchestra('run', join(FIXTURES, 'human-gate.dot'), '--simulate', '--logs-dir', dir);
    try {
      await until(() => existsSync(join(dir, 'events.jsonl')) && readFileSync(join(dir, 'events.jsonl'), 'utf8').includes('interview.started'), 'the CLI to ask');
      const pid = cli.child.pid as number;
      const summary = (await server.get('/pipelines/held')).body;
      expect(summary).toMatchObject({ state: 'running', live: false, owner: expect.objectContaining({ pid, alive: true }) });
      for (const path of ['/pipelines/held/resume', '/pipelines/held/cancel']) {
        const refused = await server.post(path);
        expect(refused.status, path).toBe(409);
        expect(refused.body.error.code, path).toBe('ORCH_RUN_LOCKED');
        expect(refused.body.error.message, path).toContain(`process ${pid}`);
      }
      const answer = await server.post('/pipelines/held/questions/review_gate/answer', { answer: 'A' });
      expect(answer.status).toBe(409);
      expect(answer.body.error.message).toContain(`process ${pid}`);
      // Its events are followed through its file: answering in its terminal shows up on the stream.
      const stream = await SseClient.open(`${server.url}/pipelines/held/events`);
      await stream.until((events) => events.some((e) => e.event === 'interview.started'));
      cli.child.stdin?.write('A\n');
      await stream.untilEnd(15_000);
      expect(stream.recorded().at(-1)?.event).toBe('pipeline.completed');
      expect(await cli.exited).toBe(0);
    } finally {
      cli.child.kill('SIGKILL');
    }
  });
});
