import { afterEach, describe, expect, it } from 'vitest';
import { SseClient } from '../support/sse-client.js';
import { fixture, testServer, type TestServer } from '../support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a run through the API', () => {
  it('starts, streams its events over SSE to the end, and takes a gate answer', async () => {
    server = await testServer();
    const created = await server.post('/pipelines', { source: fixture('human-gate.dot'), simulate: true });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect(created.headers.get('location')).toBe(`/pipelines/${id}`);
    expect(created.body).toMatchObject({ pipeline: 'Review', state: 'running', live: true });

    const stream = await SseClient.open(`${server.url}/pipelines/${id}/events`);
    expect(stream.status).toBe(200);
    const question = await server.question(id);
    expect(question).toMatchObject({ node_id: 'review_gate', type: 'MULTIPLE_CHOICE', options: [{ key: 'A', label: 'Approve' }, { key: 'F', label: 'Fix' }], source: 'live' });
    await stream.until((events) => events.some((e) => e.event === 'interview.started'));

    const answered = await server.post(`/pipelines/${id}/questions/${question.id}/answer`, { answer: 'Approve' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ id: question.id, value: 'A', label: 'Approve' });

    const events = await stream.untilEnd();
    const recorded = stream.recorded();
    // Every recorded event, numbered 1..n without a gap, ending with the run's end.
    expect(recorded.map((e) => Number(e.id))).toEqual(recorded.map((_, i) => i + 1));
    expect(recorded.at(-1)?.event).toBe('pipeline.completed');
    expect(events.at(-1)?.event).toBe('end');
    const interaction = recorded.find((e) => e.event === 'human.interaction');
    expect(JSON.parse(interaction?.data ?? '{}')).toMatchObject({ nodeId: 'review_gate', selectedKey: 'A' });
    // The route the answer chose.
    expect(recorded.filter((e) => e.event === 'stage.started').map((e) => JSON.parse(e.data).nodeId)).toEqual(['start', 'review_gate', 'ship_it', 'exit']);

    const done = await server.state(id, 'completed');
    expect(done.completed_nodes).toEqual(['start', 'review_gate', 'ship_it', 'exit']);
    expect(done.questions).toEqual([]);
    // The stream numbers events as the run directory records them.
    const lines = (await import('node:fs')).readFileSync(`${server.runsDir}/${id}/events.jsonl`, 'utf8').trim().split('\n');
    expect(lines.length).toBe(recorded.length);
    expect(JSON.parse(lines[4] as string)).toEqual(JSON.parse(recorded[4]?.data ?? ''));
  });

  it('replays exactly the missed events to a client reconnecting with Last-Event-ID, live and after the end', async () => {
    server = await testServer();
    const id = await server.start(fixture('multiple-gates.dot'));
    const first = await SseClient.open(`${server.url}/pipelines/${id}/events`);
    const q1 = await server.question(id);
    await first.until((events) => events.some((e) => e.event === 'interview.started'));
    const seen = first.recorded();
    const lastId = Number(seen.at(-1)?.id);
    first.close();

    // Events happen while the client is away.
    await server.post(`/pipelines/${id}/questions/${q1.id}/answer`, { answer: q1.options[0].key });
    const q2 = await server.question(id);
    expect(q2.id).not.toBe(q1.id);

    const again = await SseClient.open(`${server.url}/pipelines/${id}/events`, { 'last-event-id': String(lastId) });
    await again.until((events) => events.filter((e) => e.event === 'interview.started').length >= 1);
    const resumedIds = again.recorded().map((e) => Number(e.id));
    expect(resumedIds[0]).toBe(lastId + 1);
    expect(resumedIds).toEqual(resumedIds.map((_, i) => lastId + 1 + i));
    await server.post(`/pipelines/${id}/questions/${q2.id}/answer`, { answer: q2.options[0].key });
    await again.untilEnd();
    const all = [...seen, ...again.recorded()];
    expect(all.map((e) => Number(e.id))).toEqual(all.map((_, i) => i + 1));

    // After the end: a client that had everything up to n gets n+1.. only, then `end`.
    const total = all.length;
    const late = await SseClient.open(`${server.url}/pipelines/${id}/events?after=${total - 2}`);
    await late.untilEnd();
    expect(late.recorded().map((e) => Number(e.id))).toEqual([total - 1, total]);
    const header = await SseClient.open(`${server.url}/pipelines/${id}/events`, { 'last-event-id': String(total) });
    await header.untilEnd();
    expect(header.recorded()).toEqual([]);
  });

  it('sends heartbeats on an idle stream', async () => {
    server = await testServer({ heartbeatMs: 30 });
    const id = await server.start(fixture('human-gate.dot'));
    const stream = await SseClient.open(`${server.url}/pipelines/${id}/events`);
    await server.question(id);
    const deadline = Date.now() + 5000;
    while (stream.comments.filter((c) => c === 'heartbeat').length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(stream.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
    stream.close();
  });

  it('cancels a run waiting at a gate; it stays resumable and resumes with the question asked again', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'));
    const before = await server.question(id);
    const cancelled = await server.post(`/pipelines/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'stopped', live: false, checkpoint_status: 'interrupted' });
    expect((await server.get(`/pipelines/${id}/questions`)).body.questions).toEqual([]);
    // The old question is gone: answering it is a conflict.
    const stale = await server.post(`/pipelines/${id}/questions/${before.id}/answer`, { answer: 'A' });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('ORCH_NOT_PENDING');
    expect((await server.post(`/pipelines/${id}/cancel`)).body.error.code).toBe('ORCH_RUN_NOT_RUNNING');

    const resumed = await server.post(`/pipelines/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.live).toBe(true);
    const again = await server.question(id);
    expect(again.node_id).toBe('review_gate');
    expect(again.id).not.toBe(before.id);
    expect((await server.post(`/pipelines/${id}/questions/${again.id}/answer`, { answer: 'F' })).status).toBe(200);
    // [F] Fix loops back to the gate.
    const third = await server.question(id);
    expect(third.node_id).toBe('review_gate');
    await server.post(`/pipelines/${id}/questions/${third.id}/answer`, { answer: 'a' });
    const done = await server.state(id, 'completed');
    expect(done.completed_nodes).toEqual(['start', 'review_gate', 'fixes', 'review_gate', 'ship_it', 'exit']);
    expect((await server.post(`/pipelines/${id}/resume`)).body.error.code).toBe('ORCH_RUN_ENDED');
  });

  it('holds an interactive conversation, one question per turn, until /done', async () => {
    server = await testServer();
    const id = await server.start(fixture('interactive.dot'));
    const turn1 = await server.question(id);
    expect(turn1).toMatchObject({ node_id: 'refine', type: 'FREEFORM', conversation: { turn: 1, commands: ['/done', '/approve', '/reject'] } });
    expect(turn1.text).toContain('Reply 1 for stage: refine');
    expect((await server.post(`/pipelines/${id}/questions/${turn1.id}/answer`, { answer: '   ' })).status).toBe(400);
    expect((await server.post(`/pipelines/${id}/questions/${turn1.id}/answer`, { answer: 'Make it smaller' })).status).toBe(200);
    let turn2 = await server.question(id);
    while (turn2.id === turn1.id) turn2 = await server.question(id);
    expect(turn2.conversation.turn).toBe(2);
    expect(turn2.text).toContain('to: "Make it smaller"');
    const summary = (await server.get(`/pipelines/${id}`)).body;
    expect(summary.conversations).toEqual([expect.objectContaining({ node_id: 'refine', turns: [expect.objectContaining({ human: 'Make it smaller' })], pending: turn2.text })]);
    await server.post(`/pipelines/${id}/questions/${turn2.id}/answer`, { answer: '/done' });
    const done = await server.state(id, 'completed');
    expect(done.completed_nodes).toEqual(['start', 'draft', 'refine', 'publish', 'exit']);
  });

  it('shows where the run is: picture, checkpoint and context', async () => {
    server = await testServer();
    const id = await server.start(fixture('human-gate.dot'), { context: { ticket: 'T-1' } });
    await server.question(id);
    const picture = await fetch(`${server.url}/pipelines/${id}/graph`);
    expect(picture.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svg = (await picture.text()).replace(/&#45;/g, "-");
    expect(svg).toMatch(/<g id="node-start" class="node state-completed"/);
    expect(svg).toMatch(/<g id="node-review_gate" class="node state-current"/);
    expect(svg).toMatch(/<g id="node-ship_it" class="node state-pending"/);
    const context = await server.get(`/pipelines/${id}/context`);
    expect(context.body.context).toMatchObject({ ticket: 'T-1', outcome: 'success' });
    const checkpoint = await server.get(`/pipelines/${id}/checkpoint`);
    expect(checkpoint.body.checkpoint).toMatchObject({ completed_nodes: ['start'] });
    const listed = await server.get('/pipelines');
    expect(listed.body.runs.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(listed.body.runs[0]).toMatchObject({ state: 'running', live: true, questions: [expect.objectContaining({ node_id: 'review_gate' })] });
  });
});
