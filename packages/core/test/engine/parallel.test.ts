import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AnswerLater, createDefaultRegistry, FileRunStore, resumePipeline, simulationBackend, type Handler, type Interviewer } from '../../src/index.js';
import { RecordedAnswersInterviewer, recordAnswer } from '../../src/human.js';
import { readPendingQuestions } from '../../src/store.js';
import { checkpointAt, dot, eventsOf, registryWith, run, scripted, statusAt, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const FIXTURE = readFileSync(new URL('../../../../fixtures/parallel.dot', import.meta.url), 'utf8');

/** fan -> a, b, c -> join -> after -> exit, every node scripted. */
function fanOut(fanAttrs = '', branches = ['a', 'b', 'c']): string {
  const lines = [`  fan [shape=component${fanAttrs ? `, ${fanAttrs}` : ''}]`, '  join [shape=tripleoctagon]', '  after [type="s"]', '  start -> fan'];
  for (const b of branches) lines.push(`  ${b} [type="s"]`, `  fan -> ${b} -> join`);
  lines.push('  join -> after -> exit');
  return dot(lines.join('\n'));
}

interface BranchJson {
  id: string;
  status: string;
  completed_nodes: string[];
  stopped_at: string | null;
  context_updates: Record<string, unknown>;
}

describe('parallel fan-out and fan-in (spec §4.8, §4.9, §11.12)', () => {
  it('runs the fixture: every branch, then the fan-in picks the best, then the run goes on', async () => {
    const { result, logsRoot, events } = await run(FIXTURE);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'fan', 'join', 'summarize', 'exit']);
    const results = result.context['parallel.results'] as unknown as BranchJson[];
    expect(results.map((r) => [r.id, r.status, r.stopped_at])).toEqual([
      ['security', 'success', 'join'],
      ['perf', 'success', 'join'],
      ['style', 'success', 'join'],
    ]);
    expect(result.context['parallel.fan_in.best_id']).toBe('security');
    expect(result.context['parallel.fan_in.best_outcome']).toBe('success');
    for (const node of ['security', 'perf', 'style', 'fan', 'join']) expect(statusAt(logsRoot, node)).toMatchObject({ outcome: 'success' });
    expect(readFileSync(join(logsRoot, 'style', 'stdout.log'), 'utf8')).toBe('style ok\n');
    expect(eventsOf(events, 'parallel.started')).toEqual([expect.objectContaining({ nodeId: 'fan', branchCount: 3, joinPolicy: 'wait_all', maxParallel: 3 })]);
    expect(eventsOf(events, 'parallel.branch_completed').map((e) => e.branch).sort()).toEqual(['perf', 'security', 'style']);
    expect(eventsOf(events, 'parallel.completed')).toEqual([expect.objectContaining({ successCount: 3, failureCount: 0 })]);
    expect(eventsOf(events, 'edge.selected').find((e) => e.from === 'fan')).toMatchObject({ to: 'join', reason: 'handler' });
  });

  it('runs branches concurrently up to max_parallel', async () => {
    let running = 0;
    let peak = 0;
    const slow: Handler = {
      execute: async ({ node }) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 60));
        running--;
        return { status: 'success', contextUpdates: { [`${node.id}.done`]: true } };
      },
    };
    const four = ['a', 'b', 'c', 'd'];
    await run(fanOut('max_parallel=2', four), { handlers: { s: slow } });
    expect(peak).toBe(2);
    peak = 0;
    await run(fanOut('', four), { handlers: { s: slow } });
    expect(peak).toBe(4);
  });

  it('gives each branch an isolated clone of the context; only the results come back', async () => {
    const s = scripted({
      a: ({ context }) => ({ status: 'success', contextUpdates: { shared: `a saw ${String(context.get('seed'))}` } }),
      b: { status: 'success', contextUpdates: { shared: 'b' } },
      c: { status: 'success' },
    });
    const { result } = await run(fanOut(), { handlers: { s: s.handler }, initialContext: { seed: 'x' } });
    expect(result.context).not.toHaveProperty('shared');
    const results = result.context['parallel.results'] as unknown as BranchJson[];
    expect(results[0]?.context_updates).toMatchObject({ shared: 'a saw x', current_node: 'a', outcome: 'success' });
    expect(results[1]?.context_updates).toMatchObject({ shared: 'b' });
  });

  it('wait_all: a failed branch makes the fan-out a partial success; fan-in picks a successful branch', async () => {
    const s = scripted({ a: { status: 'fail', failureReason: 'broken' } });
    const { result, logsRoot } = await run(fanOut(), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(statusAt(logsRoot, 'fan')).toMatchObject({ outcome: 'partial_success', notes: '2 of 3 branches succeeded' });
    expect(result.context['parallel.fan_in.best_id']).toBe('b');
  });

  it('fan-in fails when every branch failed', async () => {
    const s = scripted({ a: { status: 'fail' }, b: { status: 'fail' }, c: { status: 'fail' } });
    const { result } = await run(fanOut(), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe('join failed: every branch before join failed');
  });

  it('first_success: succeeds with the first successful branch and cancels the others', async () => {
    const s = scripted({
      a: async ({ signal }) => untilAborted(signal),
      b: { status: 'success' },
      c: async ({ signal }) => untilAborted(signal),
    });
    const { result, events } = await run(fanOut('join_policy=first_success'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    const results = result.context['parallel.results'] as unknown as BranchJson[];
    expect(results.map((r) => r.status)).toEqual(['skipped', 'success', 'skipped']);
    expect(result.context['parallel.fan_in.best_id']).toBe('b');
    expect(eventsOf(events, 'parallel.completed')[0]).toMatchObject({ successCount: 1, failureCount: 0 });
  });

  it('fails the fan-out when the branches do not meet at one fan-in node', async () => {
    const src = dot('  fan [shape=component]\n  j1 [shape=tripleoctagon]\n  j2 [shape=tripleoctagon]\n  a [type="s"]\n  b [type="s"]\n  start -> fan\n  fan -> a -> j1 -> exit\n  fan -> b -> j2 -> exit');
    const { result } = await run(src, { handlers: { s: scripted().handler } });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe('fan failed: the branches of fan do not meet at one fan-in node (they stopped at j1, j2)');
  });

  it('an interrupted fan-out re-runs on resume only the branches that had not succeeded, and reaches the same result', async () => {
    const controller = new AbortController();
    let stop = true;
    const handler: Handler = {
      execute: async ({ node, signal, logsRoot }) => {
        if (node.id === 'b' && stop) {
          stop = false;
          // Stop once the other two branches are recorded as succeeded.
          const until = Date.now() + 10_000;
          const saved = () => Object.keys((checkpointAt(logsRoot).node_progress.fan as { succeeded?: object } | undefined)?.succeeded ?? {}).length;
          while (saved() < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
          controller.abort('stop');
          return untilAborted(signal);
        }
        return { status: 'success', contextUpdates: { [`${node.id}.ran`]: true } };
      },
    };
    const src = fanOut();
    const registry = registryWith({ s: handler });
    const first = await run(src, { registry, signal: controller.signal, source: src });
    expect(first.result.status).toBe('interrupted');
    expect(checkpointAt(first.logsRoot)).toMatchObject({ status: 'interrupted', next_node: 'fan', completed_nodes: ['start'] });
    const saved = checkpointAt(first.logsRoot).node_progress.fan as { succeeded: Record<string, { id: string }> };
    expect(Object.values(saved.succeeded).map((r) => r.id)).toContain('a');
    const rerun: string[] = [];
    const resumed = await resumePipeline(first.logsRoot, { registry, onEvent: (e) => e.type === 'parallel.branch_started' && rerun.push(e.branch) });
    expect(rerun).toEqual(['b']);
    const reference = await run(src, { registry: registryWith({ s: handler }) });
    expect(resumed.completedNodes).toEqual(reference.result.completedNodes);
    expect(resumed.context).toEqual(reference.result.context);
    expect(checkpointAt(first.logsRoot).node_progress).toEqual({});
  });

  it('branches waiting for a human park the run together; the other branches finish first and are not run again', async () => {
    const src = dot(
      '  fan [shape=component]\n  join [shape=tripleoctagon]\n  g1 [shape=hexagon, label="First?"]\n  g2 [shape=hexagon, label="Second?"]\n  w [type="s"]\n  a1 [type="s"]\n  a2 [type="s"]\n' +
        '  start -> fan\n  fan -> g1\n  fan -> g2\n  fan -> w\n  g1 -> a1 [label="[Y] Yes"]\n  g2 -> a2 [label="[Y] Yes"]\n  a1 -> join\n  a2 -> join\n  w -> join\n  join -> exit',
    );
    const work = scripted();
    const later: Interviewer = { ask: async (question) => Promise.reject(new AnswerLater(question)) };
    const registry = createDefaultRegistry({ backend: simulationBackend, interviewer: later }).register('s', work.handler);
    const first = await run(src, { registry, source: src });
    expect(first.result.status).toBe('parked');
    expect((await readPendingQuestions(new FileRunStore(first.logsRoot))).map((p) => p.id)).toEqual(['g1', 'g2']);
    expect(work.calls).toEqual(['w']);

    expect((await recordAnswer(new FileRunStore(first.logsRoot), 'y'))).toMatch(/several questions are pending/);
    expect((await recordAnswer(new FileRunStore(first.logsRoot), 'y', { id: 'g1' }))).toMatchObject({ id: 'g1' });
    const answering = createDefaultRegistry({ backend: simulationBackend, interviewer: new RecordedAnswersInterviewer(new FileRunStore(first.logsRoot), undefined) }).register('s', work.handler);
    const second = await resumePipeline(first.logsRoot, { registry: answering });
    expect(second.status).toBe('parked');
    expect((await readPendingQuestions(new FileRunStore(first.logsRoot))).map((p) => p.id)).toEqual(['g2']);
    expect(work.calls).toEqual(['w', 'a1']);

    expect((await recordAnswer(new FileRunStore(first.logsRoot), 'y'))).toMatchObject({ id: 'g2' });
    const third = await resumePipeline(first.logsRoot, { registry: answering });
    expect(third.status).toBe('success');
    expect(work.calls).toEqual(['w', 'a1', 'a2']);
    const results = third.context['parallel.results'] as unknown as BranchJson[];
    expect(results.map((r) => [r.id, r.status, r.completed_nodes])).toEqual([
      ['g1', 'success', ['g1', 'a1']],
      ['g2', 'success', ['g2', 'a2']],
      ['w', 'success', ['w']],
    ]);
  });
});
