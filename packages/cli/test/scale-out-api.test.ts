import { simulationBackend, type CodergenBackend } from '@orchestra/core';
import { createApp, ServerRuns } from '@orchestra/server';
import { PostgresRunCatalogue, RunQueue, RunWorker } from '@orchestra/store-postgres';
import { startPostgres, type PostgresServer } from '@orchestra/testing/postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * The HTTP API over a PostgreSQL store, as `orchestra serve --store` runs it:
 * the server queues runs and resumes, workers (here in this process) drive
 * them, and the API shows and steers them wherever they run.
 */

let pg: PostgresServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 60_000);
afterAll(() => pg?.dispose());

const GATE =
  'digraph Gate {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [shape=hexagon, label="Review"]\n  start -> draft -> review\n  review -> exit [label="[A] Approve"]\n  review -> draft [label="[R] Revise"]\n}\n';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** The API of a server over the database (no port: requests in this process). */
function api(url: string) {
  const catalogue = new PostgresRunCatalogue(url);
  const queue = new RunQueue(catalogue.db);
  const app = createApp(new ServerRuns({ catalogue, dispatch: queue, checkpointIntervalMs: 0 }));
  closers.push(async () => {
    await queue.stop();
    await catalogue.close();
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(path, { method, ...(body !== undefined ? { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } } : {}) });
    return { status: response.status, body: (await response.json()) as any };
  };
  return { app, call };
}

/** A worker in this process; `backend` answers the simulated runs' LLM stages. */
async function worker(url: string, backend: CodergenBackend = simulationBackend): Promise<RunWorker> {
  const catalogue = new PostgresRunCatalogue(url);
  const w = new RunWorker({ catalogue, pollMs: 100, checkpointIntervalMs: 0, setup: async () => ({ backend }) });
  await w.start();
  closers.push(async () => {
    await w.stop(2000);
    await catalogue.close();
  });
  return w;
}

async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the HTTP API over a PostgreSQL store', { timeout: 40_000 }, () => {
  it('a parked run answered through the API while no worker runs is completed when a worker starts', async () => {
    const url = await pg.createDatabase();
    const { call } = api(url);
    const created = await call('POST', '/pipelines', { source: GATE, simulate: true });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    // Queued: recorded, driven by nobody yet.
    expect(created.body).toMatchObject({ state: 'stopped', live: false });
    const first = await worker(url);
    const parked = await until('the run to park', async () => {
      const s = await call('GET', `/pipelines/${id}`);
      return s.body.state === 'parked' ? s.body : undefined;
    });
    expect(parked.questions.map((q: { text: string }) => q.text)).toEqual(['Review']);
    await first.stop(2000);
    const qid = parked.questions[0].id as string;
    const answered = await call('POST', `/pipelines/${id}/questions/${qid}/answer`, { answer: 'A' });
    expect(answered.status).toBe(200);
    // No worker: the answer is kept and the resume waits in the queue.
    await new Promise((r) => setTimeout(r, 500));
    const waiting = await call('GET', `/pipelines/${id}`);
    expect(waiting.body.state).toBe('parked');
    await worker(url);
    const done = await until('the run to complete', async () => {
      const s = await call('GET', `/pipelines/${id}`);
      return s.body.state === 'completed' ? s.body : undefined;
    });
    expect(done.completed_nodes).toEqual(['start', 'draft', 'review', 'exit']);
  });

  it('follows the events of a run a worker drives, live, through LISTEN/NOTIFY', async () => {
    const url = await pg.createDatabase();
    const { app, call } = api(url);
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The worker's stage `slow` waits until the test lets it go: the run is live while the stream is read.
    const backend: CodergenBackend = {
      run: async (request) => {
        if (request.node.id === 'slow') await held;
        return simulationBackend.run(request);
      },
    };
    closers.push(async () => release?.()); // a worker stopping waits for its stage
    await worker(url, backend);
    const source = 'digraph Live {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  quick [prompt="Q"]\n  slow [prompt="S"]\n  after [prompt="A"]\n  start -> quick -> slow -> after -> exit\n}\n';
    const { body } = await call('POST', '/pipelines', { source, simulate: true });
    const id = body.id as string;
    await until('the worker to drive it', async () => ((await call('GET', `/pipelines/${id}`)).body.state === 'running' ? true : undefined));
    const response = await app.request(`/pipelines/${id}/events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const read = async (until: string) => {
      while (!text.includes(until)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await read('"to":"slow"');
    // The stream is open while the worker holds `slow`: the rest arrives live, as the worker stores it.
    expect(text).not.toContain('"nodeId":"after"');
    release?.();
    await read('pipeline.completed');
    expect(text).toContain('"nodeId":"after"');
    expect(text).toContain('pipeline.completed');
    await reader.cancel();
  });

  it('cancels a run a worker drives: the worker is asked through the database and lets it go, resumable', async () => {
    const url = await pg.createDatabase();
    const { call } = api(url);
    // The stage waits until the run is stopped.
    const backend: CodergenBackend = {
      run: async (request) => {
        if (request.node.id === 'slow') await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
        return simulationBackend.run(request);
      },
    };
    const w = await worker(url, backend);
    const source = 'digraph Stop {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  slow [prompt="S"]\n  start -> slow -> exit\n}\n';
    const id = (await call('POST', '/pipelines', { source, simulate: true })).body.id as string;
    await until('the worker to drive it', async () => (w.supervisor.isActive(id) ? true : undefined));
    const cancelled = await call('POST', `/pipelines/${id}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ state: 'stopped', live: false });
    expect(w.supervisor.isActive(id)).toBe(false);
    // Stopped on purpose: no worker picks it up by itself; a resume queues it again.
    expect((await call('POST', `/pipelines/${id}/resume`, {})).status).toBe(200);
    await until('the run to be driven again', async () => (w.supervisor.isActive(id) || (await call('GET', `/pipelines/${id}`)).body.state === 'running' ? true : undefined));
  });

  it('answers 503 naming host and port when the database cannot be reached', async () => {
    const { call } = api('postgres://someone:hunter2secret@127.0.0.1:1/runs');
    for (const path of ['/pipelines', '/pipelines/some-run']) {
      const reply = await call('GET', path);
      expect(reply.status, path).toBe(503);
      expect(reply.body.error.code).toBe('ORCH_DB_UNREACHABLE');
      expect(reply.body.error.message).toContain('cannot reach PostgreSQL at 127.0.0.1:1');
      expect(JSON.stringify(reply.body)).not.toContain('hunter2secret');
    }
  });
});
