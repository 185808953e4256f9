import { describe, expect, it } from 'vitest';
import { resumePipeline, type Handler } from '../../src/index.js';
import { checkpointAt, dot, journalAt, registryWith, run, runInMemory, scripted, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** Behaviour orchestra chose where the spec is silent or contradicts itself (see docs/running.md). */
describe('engine decisions', () => {
  it('checks goal gates at a dead end too: an unsatisfied gate fails the run instead of a silent success', async () => {
    const src = dot('  a [type="s", goal_gate=true]\n  b [type="s"]\n  start -> a -> b\n  b -> exit [condition="context.never=yes"]');
    const s = scripted({ a: { status: 'partial_success' } });
    const ok = await run(src, { handlers: { s: s.handler } });
    expect(ok.result.status).toBe('success');
    expect(ok.result.completedNodes).toEqual(['start', 'a', 'b']);

    const failing = scripted({ a: { status: 'fail', failureReason: 'nope' } });
    const gated = dot('  a [type="s", goal_gate=true]\n  b [type="s"]\n  start -> a\n  a -> b [condition="outcome=fail"]\n  b -> exit [condition="context.never=yes"]');
    const bad = await run(gated, { handlers: { s: failing.handler } });
    expect(bad.result.status).toBe('fail');
    expect(bad.result.failureReason).toBe('goal gate a is unsatisfied and there is no retry target');
    expect(checkpointAt(bad.logsRoot)).toMatchObject({ status: 'failed' });
  });

  it('fails the run when the exit node itself fails', async () => {
    const exitFails: Handler = { execute: () => ({ status: 'fail', failureReason: 'cleanup broke' }) };
    const registry = registryWith().register('exit', exitFails);
    const { result } = await runInMemory(dot('  start -> exit'), { registry });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe('exit node exit failed: cleanup broke');
  });

  it('keeps nothing of an interrupted node: its context writes and log lines are rolled back', async () => {
    const controller = new AbortController();
    const s = scripted({
      b: async ({ context, signal }) => {
        context.set('b.partial', 'half-done');
        context.appendLog('b started');
        controller.abort('stop');
        return untilAborted(signal);
      },
    });
    const src = dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit');
    const { result, logsRoot } = await run(src, { handlers: { s: s.handler }, signal: controller.signal, source: src });
    expect(result.status).toBe('interrupted');
    expect(result.context).not.toHaveProperty('b.partial');
    expect(result.context.current_node).toBe('a');
    const checkpoint = checkpointAt(logsRoot);
    expect(checkpoint.context).not.toHaveProperty('b.partial');
    expect(checkpoint.logs).not.toContain('b started');
    expect(checkpoint).toMatchObject({ status: 'interrupted', next_node: 'b' });
  });

  it('journals run-log lines so a crash loses none of them', async () => {
    const s = scripted({
      a: ({ context }) => {
        context.appendLog('ran a');
        return { status: 'success' };
      },
    });
    const { logsRoot } = await run(dot('  a [type="s"]\n  start -> a -> exit'), { handlers: { s: s.handler } });
    expect(journalAt(logsRoot).find((e) => e.node === 'a')?.logs).toEqual(['ran a']);
  });

  it('resuming a directory that ended on loop_restart resumes the run that continued it', async () => {
    const controller = new AbortController();
    let aCalls = 0;
    const handler: Handler = {
      execute: async ({ node, signal }) => {
        if (node.id === 'a') {
          aCalls++;
          return { status: 'success', contextUpdates: { again: aCalls === 1 ? 'yes' : 'no' } };
        }
        if (node.id === 'c' && !controller.signal.aborted) {
          controller.abort('stop');
          return untilAborted(signal);
        }
        return { status: 'success' };
      },
    };
    const src = dot('  a [type="s"]\n  b [type="s"]\n  c [type="s"]\n  start -> a\n  a -> b [loop_restart=true, condition="context.again=yes"]\n  a -> c [condition="context.again!=yes"]\n  b -> a\n  c -> exit');
    const registry = registryWith({ s: handler });
    const first = await run(src, { registry, signal: controller.signal, source: src });
    expect(first.result.status).toBe('interrupted');
    expect(first.result.logsRoot).toBe(`${first.logsRoot}-restart-1`);
    const resumed = await resumePipeline(first.logsRoot, { registry });
    expect(resumed.status).toBe('success');
    expect(resumed.logsRoot).toBe(`${first.logsRoot}-restart-1`);
    expect(resumed.completedNodes).toEqual(['b', 'a', 'c', 'exit']);
  });
});

describe('retry presets (orchestra extension: retry_policy / default_retry_policy)', () => {
  it('selects attempts and backoff from a preset; max_retries still wins for attempts', async () => {
    const { loadPipeline } = await import('../../src/index.js');
    const { buildRetryPolicy, RETRY_PRESETS } = await import('../../src/handlers.js');
    const graph = loadPipeline(
      dot('  a [type="s", retry_policy=patient]\n  b [type="s", retry_policy=linear, max_retries=1]\n  c [type="s"]\n  start -> a -> b -> c -> exit', 'P', 'default_retry_policy=aggressive'),
      { knownHandlerTypes: ['s'] },
    ).graph!;
    const policy = (id: string) => buildRetryPolicy(graph.nodes.get(id)!, graph);
    expect(policy('a')).toMatchObject({ maxAttempts: 3, backoff: RETRY_PRESETS.patient.backoff });
    expect(policy('b')).toMatchObject({ maxAttempts: 2, backoff: RETRY_PRESETS.linear.backoff });
    expect(policy('c')).toMatchObject({ maxAttempts: 5, backoff: RETRY_PRESETS.aggressive.backoff });
  });

  it('rejects an unknown preset name at validation', async () => {
    const { loadPipeline } = await import('../../src/index.js');
    const result = loadPipeline(dot('  a [retry_policy=stubborn, prompt="x"]\n  start -> a -> exit'));
    expect(result.ok).toBe(false);
    expect(result.diagnostics.find((d) => d.rule === 'attribute_value')?.message).toBe('node a: retry_policy="stubborn" is not one of none, standard, aggressive, linear, patient');
  });
});
