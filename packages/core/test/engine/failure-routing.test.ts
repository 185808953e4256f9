import { describe, expect, it } from 'vitest';
import { checkpointAt, dot, eventsOf, run, runInMemory, scripted, statusAt, useTempDirs } from './engine-helpers.js';

useTempDirs();

const FAIL = { status: 'fail', failureReason: 'compile error' } as const;

describe('failure routing (spec §3.7)', () => {
  const body = (aAttrs: string, extraEdges = '') =>
    dot(
      `  a [type="s"${aAttrs}]\n  b [type="s"]\n  fixer [type="s"]\n  recover [type="s"]\n  start -> a -> b -> exit\n  start -> fixer -> exit\n  start -> recover -> exit\n${extraEdges}`,
    );

  it('follows an outcome=fail edge first, even when a retry target is set', async () => {
    const s = scripted({ a: FAIL });
    const { result, events } = await runInMemory(body(', retry_target=recover', '  a -> fixer [condition="outcome=fail"]'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'fixer', 'exit']);
    expect(eventsOf(events, 'edge.selected').find((e) => e.from === 'a')).toMatchObject({ to: 'fixer', reason: 'condition' });
    expect(s.count('b')).toBe(0);
  });

  it('jumps to the node retry_target when there is no fail edge', async () => {
    const s = scripted({ a: [FAIL, { status: 'success' }] });
    const { result, events } = await runInMemory(body(', retry_target=recover'), { handlers: { s: s.handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'recover', 'exit']);
    expect(eventsOf(events, 'edge.selected').find((e) => e.from === 'a')).toMatchObject({ to: 'recover', label: '', reason: 'failure_route' });
  });

  it('uses fallback_retry_target when retry_target is unset or names no node', async () => {
    for (const attrs of [', fallback_retry_target=recover', ', retry_target=ghost, fallback_retry_target=recover']) {
      const s = scripted({ a: FAIL });
      const { result } = await runInMemory(body(attrs), { handlers: { s: s.handler } });
      expect(result.completedNodes, attrs).toEqual(['start', 'a', 'recover', 'exit']);
    }
  });

  it('fails the run naming the node when there is no failure route, never taking an unconditional edge', async () => {
    const s = scripted({ a: FAIL });
    const { result, events, logsRoot } = await run(body(''), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.completedNodes).toEqual(['start', 'a']);
    expect(result.failureReason).toBe('a failed: compile error');
    expect(s.count('b')).toBe(0);
    const checkpoint = checkpointAt(logsRoot);
    expect(checkpoint.status).toBe('failed');
    expect(checkpoint.failure_reason).toBe('a failed: compile error');
    expect(checkpoint.next_node).toBeNull();
    expect(eventsOf(events, 'pipeline.failed')).toEqual([expect.objectContaining({ failureReason: 'a failed: compile error', nodesRun: 2 })]);
    expect(eventsOf(events, 'pipeline.completed')).toHaveLength(0);
  });

  it('says so when a failing stage gives no reason', async () => {
    const s = scripted({ a: { status: 'fail' } });
    const { result } = await runInMemory(body(''), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/^a failed: /);
  });

  it('does not use the graph-level retry_target for a failed stage (that is for goal gates)', async () => {
    const s = scripted({ a: FAIL });
    const source = dot('  a [type="s"]\n  recover [type="s"]\n  start -> a -> exit\n  start -> recover -> exit', 'P', 'retry_target=recover');
    const { result } = await runInMemory(source, { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.completedNodes).toEqual(['start', 'a']);
  });

  it('treats PARTIAL_SUCCESS like success for routing', async () => {
    const s = scripted({ a: { status: 'partial_success', notes: 'half done' } });
    const { result, logsRoot } = await run(body(', retry_target=recover', '  a -> fixer [condition="outcome=fail"]'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'exit']);
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'partial_success', notes: 'half done' });
  });

  it('routes on outcome conditions: success and fail paths', async () => {
    const source = dot(
      '  a [type="s"]\n  good [type="s"]\n  bad [type="s"]\n  start -> a\n  a -> good [condition="outcome=success"]\n  a -> bad [condition="outcome=fail"]\n  good -> exit\n  bad -> exit',
    );
    const ok = await runInMemory(source, { handlers: { s: scripted({ a: { status: 'success' } }).handler } });
    expect(ok.result.completedNodes).toEqual(['start', 'a', 'good', 'exit']);
    const ko = await runInMemory(source, { handlers: { s: scripted({ a: FAIL }).handler } });
    expect(ko.result.completedNodes).toEqual(['start', 'a', 'bad', 'exit']);
    expect(ko.result.status).toBe('success');
  });
});

describe('goal gates (spec §3.4, §11.4)', () => {
  /** impl is a goal gate; report follows it whatever it returns (except retry); report -> exit. */
  const gated = (implAttrs: string, graphAttrs = '', extra = '') =>
    dot(
      `  impl [type="s", goal_gate=true${implAttrs}]\n  report [type="s"]\n  prep [type="s"]\n  start -> impl\n  impl -> report [condition="outcome!=retry"]\n  report -> exit\n  start -> prep -> impl\n${extra}`,
      'P',
      graphAttrs,
    );

  it('blocks exit while the gate is unsatisfied and jumps to its retry_target', async () => {
    const s = scripted({ impl: [FAIL, { status: 'success' }] });
    const { result, events } = await runInMemory(gated(', retry_target=impl'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'impl', 'report', 'impl', 'report', 'exit']);
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toEqual([expect.objectContaining({ nodeId: 'impl', retryTarget: 'impl' })]);
    // The exit node did not run while the gate was unsatisfied.
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'exit')).toHaveLength(1);
  });

  it('allows exit when every visited gate succeeded or partially succeeded', async () => {
    for (const status of ['success', 'partial_success'] as const) {
      const s = scripted({ impl: { status } });
      const { result, events } = await runInMemory(gated(', retry_target=impl'), { handlers: { s: s.handler } });
      expect(result.status, status).toBe('success');
      expect(result.completedNodes).toEqual(['start', 'impl', 'report', 'exit']);
      expect(eventsOf(events, 'goal_gate.unsatisfied')).toHaveLength(0);
    }
  });

  it('falls back to fallback_retry_target, then the graph retry_target, then the graph fallback_retry_target', async () => {
    const cases: [string, string][] = [
      [gated(', fallback_retry_target=prep'), 'prep'],
      [gated('', 'retry_target=prep'), 'prep'],
      [gated('', 'fallback_retry_target=prep'), 'prep'],
      [gated(', retry_target=impl', 'retry_target=prep'), 'impl'],
    ];
    for (const [source, target] of cases) {
      const s = scripted({ impl: [FAIL, { status: 'success' }] });
      const { result, events } = await runInMemory(source, { handlers: { s: s.handler } });
      expect(result.status).toBe('success');
      expect(eventsOf(events, 'goal_gate.unsatisfied')[0]?.retryTarget).toBe(target);
      expect(result.completedNodes.slice(0, 4)).toEqual(['start', 'impl', 'report', target]);
    }
  });

  it('fails the run when an unsatisfied gate has no retry target at any level', async () => {
    const s = scripted({ impl: FAIL });
    const { result, events, logsRoot } = await run(gated(''), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.completedNodes).toEqual(['start', 'impl', 'report']);
    expect(result.failureReason).toContain('goal gate impl');
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toEqual([expect.objectContaining({ nodeId: 'impl', retryTarget: null })]);
    expect(checkpointAt(logsRoot).status).toBe('failed');
  });

  it('only checks gates that were visited', async () => {
    const source = dot(
      '  a [type="s"]\n  gate [type="s", goal_gate=true]\n  start -> a\n  a -> gate [condition="context.take=gate"]\n  a -> exit [condition="context.take!=gate"]\n  gate -> exit',
    );
    const s = scripted({ gate: FAIL });
    const { result } = await runInMemory(source, { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'exit']);
  });

  it('uses the latest outcome of a gate', async () => {
    // impl fails, report loops back to impl once, impl then succeeds: exit is allowed without any goal-gate jump.
    const s = scripted({
      impl: [FAIL, { status: 'success' }],
      report: [{ status: 'success', contextUpdates: { loop: 'yes' } }, { status: 'success', contextUpdates: { loop: 'no' } }],
    });
    const source = dot(
      '  impl [type="s", goal_gate=true]\n  report [type="s"]\n  start -> impl\n  impl -> report [condition="outcome!=retry"]\n  report -> impl [condition="context.loop=yes"]\n  report -> exit [condition="context.loop=no"]',
    );
    const { result, events } = await runInMemory(source, { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'impl', 'report', 'impl', 'report', 'exit']);
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toHaveLength(0);
  });
});
