import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ContextValueError, EventBus, createDefaultRegistry, resumePipeline, runPipeline, simulationBackend, type Handler } from '../../src/index.js';
import { killRunningTools } from '../../src/handlers.js';
import { checkpointAt, dot, graphFrom, newLogsRoot, registryWith, run, scripted, useTempDirs } from './engine-helpers.js';

useTempDirs();

describe('durability and robustness details', () => {
  it('rewrites checkpoint.json within the interval even while a long node runs, with committed state only', async () => {
    let seen: ReturnType<typeof checkpointAt> | undefined;
    let logsRoot = '';
    const s = scripted({
      b: async ({ context, logsRoot: root }) => {
        logsRoot = root;
        context.set('b.partial', 'in progress');
        await new Promise((r) => setTimeout(r, 400));
        seen = checkpointAt(root);
        return { status: 'success' };
      },
    });
    await run(dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit'), { handlers: { s: s.handler }, checkpointIntervalMs: 150 });
    expect(logsRoot).not.toBe('');
    expect(seen?.completed_nodes).toEqual(['start', 'a']);
    expect(seen?.next_node).toBe('b');
    expect(seen?.context).not.toHaveProperty('b.partial');
    expect(seen?.context.current_node).toBe('a');
  });

  it('killRunningTools stops tool commands at once (for a forced exit)', async () => {
    const graph = graphFrom(dot('  t [shape=parallelogram, tool_command="touch $ORCHESTRA_LOGS_DIR/started; exec sleep 30"]\n  start -> t -> exit'));
    const logsRoot = newLogsRoot();
    const running = runPipeline(graph, { logsRoot, random: () => 0 });
    await vi.waitFor(() => expect(existsSync(join(logsRoot, 'started'))).toBe(true), { timeout: 10_000 });
    const started = performance.now();
    killRunningTools();
    const result = await running;
    // Killing is not timed on the engine's clock. The command would sleep 30 s: a run that ends
    // well before was killed; the bound leaves a loaded CI machine plenty of room.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/killed by SIGKILL/);
  }, 40_000); // room for the time bound above to fail with its message rather than as a timeout

  it('does not register anything on the caller\u2019s registry', async () => {
    const registry = createDefaultRegistry();
    expect(registry.get('codergen')).toBeUndefined();
    const { result } = await run(dot('  a [prompt="x"]\n  start -> a -> exit'), { registry, backend: simulationBackend });
    expect(result.status).toBe('success');
    expect(registry.get('codergen')).toBeUndefined();
  });

  it('survives an async event listener that rejects', async () => {
    const graph = graphFrom(dot('  start -> exit'));
    const result = await runPipeline(graph, { logsRoot: newLogsRoot(), onEvent: async () => Promise.reject(new Error('listener broke')) });
    expect(result.status).toBe('success');
  });

  it('refuses a bad initial context before creating the run directory', async () => {
    const logsRoot = newLogsRoot();
    const graph = graphFrom(dot('  start -> exit'));
    await expect(runPipeline(graph, { logsRoot, initialContext: { when: new Date() } })).rejects.toBeInstanceOf(ContextValueError);
    expect(existsSync(logsRoot)).toBe(false);
  });

  it('resume starts a loop_restart run whose directory a crash never created', async () => {
    let aCalls = 0;
    const handler: Handler = {
      execute: ({ node }) => {
        if (node.id === 'a') aCalls++;
        const updates: Record<string, string> = node.id === 'a' ? { again: aCalls === 1 ? 'yes' : 'no' } : {};
        return { status: 'success', contextUpdates: updates };
      },
    };
    const src = dot('  a [type="s"]\n  b [type="s"]\n  start -> a\n  a -> b [loop_restart=true, condition="context.again=yes"]\n  a -> exit [condition="context.again!=yes"]\n  b -> a');
    const registry = registryWith({ s: handler });
    const first = await run(src, { registry, source: src });
    const next = `${first.logsRoot}-restart-1`;
    expect(first.result.logsRoot).toBe(next);
    rmSync(next, { recursive: true }); // as if the process died right after the restart was journaled
    aCalls = 1;
    const resumed = await resumePipeline(first.logsRoot, { registry });
    expect(resumed).toMatchObject({ status: 'success', logsRoot: next, completedNodes: ['b', 'a', 'exit'] });
    expect(checkpointAt(next).status).toBe('completed');
  });

  it('emits the last checkpoint.saved after checkpoint.json is final', async () => {
    const events: string[] = [];
    const bus = new EventBus();
    bus.on((e) => events.push(e.type === 'checkpoint.saved' ? `${e.type}:${e.file}` : e.type));
    await run(dot('  start -> exit'), { events: bus });
    expect(events.slice(-2)).toEqual(['checkpoint.saved:true', 'pipeline.completed']);
  });
});
