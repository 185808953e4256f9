import { guardedSetup, RunSupervisor, simulationBackend, type CodergenBackend } from '@orchestra/core';
import { readRunReport } from '@orchestra/core/store';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresRunCatalogue, RunQueue, RunWorker, runsToRecover } from '../src/index.js';
import { usePostgres } from './support/postgres.js';

const server = usePostgres();

const CHAIN = 'digraph Chain {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="A"]\n  b [prompt="B"]\n  start -> a -> b -> exit\n}\n';
const GATE =
  'digraph Gate {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  draft [prompt="Draft"]\n  review [shape=hexagon, label="Review"]\n  start -> draft -> review\n  review -> exit [label="[A] Approve"]\n  review -> draft [label="[R] Revise"]\n}\n';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A front end that only queues runs (as `orchestra run --detach` and `serve --store` do). */
function frontEnd(url: string) {
  const catalogue = new PostgresRunCatalogue(url);
  const queue = new RunQueue(catalogue.db);
  const supervisor = new RunSupervisor({ catalogue, dispatch: queue });
  closers.push(async () => {
    await queue.stop();
    await catalogue.close();
  });
  return { catalogue, queue, supervisor };
}

function worker(url: string, concurrency = 2, backend?: CodergenBackend) {
  const catalogue = new PostgresRunCatalogue(url);
  const w = new RunWorker({ catalogue, concurrency, pollMs: 200, checkpointIntervalMs: 0, ...(backend ? { setup: async () => ({ backend }) } : {}) });
  closers.push(async () => {
    await w.stop(2000);
    await catalogue.close();
  });
  return w;
}

async function until<T>(what: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('RunWorker', () => {
  it('tells its observer (what worker --otel traces with) every event of each run it drives, each run to its own', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    const ids = [];
    for (let i = 0; i < 2; i++) ids.push((await front.supervisor.enqueue({ source: CHAIN, options: { simulate: true } })).id);
    const heard: string[][] = [];
    const catalogue = new PostgresRunCatalogue(url);
    const w = new RunWorker({
      catalogue,
      concurrency: 2,
      pollMs: 200,
      checkpointIntervalMs: 0,
      observe: () => {
        const events: string[] = [];
        heard.push(events);
        return { onEvent: (event) => events.push(event.type === 'stage.completed' ? `${event.type}:${event.nodeId}` : event.type) };
      },
    });
    closers.push(async () => {
      await w.stop(2000);
      await catalogue.close();
    });
    await w.start();
    for (const id of ids) await until(async () => ((await front.supervisor.report(id)).state === 'completed' ? true : undefined));
    await until(async () => (heard.length === 2 && heard.every((e) => e.includes('pipeline.completed')) ? true : undefined));
    for (const events of heard) {
      expect(events[0]).toBe('pipeline.started');
      expect(events.filter((e) => e.startsWith('stage.completed:'))).toEqual(['stage.completed:start', 'stage.completed:a', 'stage.completed:b', 'stage.completed:exit']);
      expect(events.filter((e) => e === 'pipeline.completed')).toHaveLength(1);
    }
  });

  it('runs queued runs to the end; the front end that queued them drives none', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await front.supervisor.enqueue({ source: CHAIN, options: { simulate: true } })).id);
    // Queued: recorded, not started.
    expect((await front.supervisor.report(ids[0] as string)).restored.state.completedNodes).toEqual([]);
    const w = worker(url);
    await w.start();
    for (const id of ids) {
      const report = await until(async () => {
        const r = await front.supervisor.report(id);
        return r.state === 'completed' ? r : undefined;
      });
      expect(report.restored.state.completedNodes).toEqual(['start', 'a', 'b', 'exit']);
    }
    expect(front.supervisor.isActive(ids[0] as string)).toBe(false);
  });

  it('parks at a question; an answer given anywhere queues its resume, and a worker finishes it', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    const { id } = await front.supervisor.enqueue({ source: GATE, options: { simulate: true } });
    const w = worker(url);
    await w.start();
    const parked = await until(async () => {
      const r = await front.supervisor.report(id);
      return r.state === 'parked' ? r : undefined;
    });
    expect(parked.pending.map((p) => p.question.text)).toEqual(['Review']);
    const answered = await front.supervisor.answer(id, undefined, 'A');
    expect(answered).toMatchObject({ key: 'A', resumed: true, dispatched: true });
    const done = await until(async () => {
      const r = await front.supervisor.report(id);
      return r.state === 'completed' ? r : undefined;
    });
    expect(done.restored.state.completedNodes).toEqual(['start', 'draft', 'review', 'exit']);
    expect(front.supervisor.isActive(id)).toBe(false);
  });

  it('goes on when the database restarts in the middle of a run: connections come back, the run completes', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    closers.push(async () => release?.());
    // Stage b waits until the database has been restarted.
    const backend: CodergenBackend = {
      run: async (request) => {
        if (request.node.id === 'b') await held;
        return simulationBackend.run(request);
      },
    };
    const { id } = await front.supervisor.enqueue({ source: CHAIN, options: { simulate: true } });
    const w = worker(url, 2, backend);
    await w.start();
    const store = front.catalogue.store(id);
    await until(async () => ((await store.readJournal()).entries.length >= 2 ? true : undefined));
    server().stop();
    await new Promise((r) => setTimeout(r, 500));
    server().start();
    release?.();
    const done = await until(async () => {
      const r = await readRunReport(store).catch(() => undefined);
      return r?.state === 'completed' ? r : undefined;
    }, 30_000);
    expect(done.restored.state.completedNodes).toEqual(['start', 'a', 'b', 'exit']);
    expect((await store.readJournal()).entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    expect(w.ended).toEqual([expect.objectContaining({ id, status: 'success' })]);
  }, 40_000);

  it('a parked run whose answers were recorded but whose resume was never queued is found by a sweep and finished', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    const { id } = await front.supervisor.enqueue({ source: GATE, options: { simulate: true } });
    const w = worker(url);
    await w.start();
    await until(async () => ((await front.supervisor.report(id)).state === 'parked' ? true : undefined));
    await w.stop(2000);
    // Recorded by a supervisor that queues nothing (as if the queue had lost the job).
    const recorder = new RunSupervisor({ catalogue: front.catalogue });
    expect(await recorder.answer(id, undefined, 'A', { resume: false })).toMatchObject({ resumed: false });
    expect(await runsToRecover(front.catalogue.db, 0)).toEqual([id]);
    const catalogue = new PostgresRunCatalogue(url);
    const sweeping = new RunWorker({ catalogue, pollMs: 100, sweepMs: 200, quietMs: 0, checkpointIntervalMs: 0 });
    closers.push(async () => {
      await sweeping.stop(2000);
      await catalogue.close();
    });
    await sweeping.start();
    const done = await until(async () => {
      const r = await front.supervisor.report(id);
      return r.state === 'completed' ? r : undefined;
    });
    expect(done.restored.state.completedNodes).toEqual(['start', 'draft', 'review', 'exit']);
  });

  it('a run a worker refuses (tools not allowed) is left alone by sweeps until it is queued again', async () => {
    const url = await server().createDatabase();
    const front = frontEnd(url);
    const tool = 'digraph Tool {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  t [shape=parallelogram, tool_command="echo hi"]\n  start -> t -> exit\n}\n';
    const { id } = await front.supervisor.enqueue({ source: tool, options: {} });
    const lines: string[] = [];
    const catalogue = new PostgresRunCatalogue(url);
    const strict = new RunWorker({ catalogue, pollMs: 100, sweepMs: 100, quietMs: 0, setup: guardedSetup({}), log: (line) => lines.push(line) });
    closers.push(async () => {
      await strict.stop(2000);
      await catalogue.close();
    });
    await strict.start();
    await until(async () => (lines.some((l) => l.includes('cannot be run here')) ? true : undefined));
    expect(lines.find((l) => l.includes('cannot be run here'))).toContain('--allow-tools');
    expect(await runsToRecover(front.catalogue.db, 0)).toEqual([]);
    // A sweep may have queued it once more before it was marked; after that, several sweeps queue nothing.
    await new Promise((r) => setTimeout(r, 300));
    const refusals = lines.filter((l) => l.includes('cannot be run here')).length;
    expect(refusals).toBeLessThanOrEqual(2);
    await new Promise((r) => setTimeout(r, 600));
    expect(lines.filter((l) => l.includes('cannot be run here'))).toHaveLength(refusals);
    expect((await front.supervisor.report(id)).restored.state.completedNodes).toEqual([]);
  });
});
