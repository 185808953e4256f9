import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry, resumePipeline, simulationBackend, type Handler } from '../../src/index.js';
import { checkpointAt, dot, eventsOf, registryWith, run, runInMemory, scripted, tempDir, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

describe('spec §11.12 cross-feature parity matrix (execution rows)', () => {
  it('executes a linear 3-node pipeline end-to-end', async () => {
    const source = dot('  a [prompt="A"]\n  b [prompt="B"]\n  c [prompt="C"]\n  start -> a -> b -> c -> exit');
    const { result, logsRoot } = await run(source);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'c', 'exit']);
    for (const node of ['a', 'b', 'c']) {
      expect(readFileSync(join(logsRoot, node, 'response.md'), 'utf8')).toBe(`[Simulated] Response for stage: ${node}`);
    }
    expect(result.context.last_stage).toBe('c');
  });

  it('executes with conditional branching (success and fail paths)', async () => {
    const source = dot(
      '  work [type="s"]\n  celebrate [type="s"]\n  repair [type="s"]\n  start -> work\n  work -> celebrate [condition="outcome=success"]\n  work -> repair [condition="outcome=fail"]\n  celebrate -> exit\n  repair -> exit',
    );
    const success = await runInMemory(source, { handlers: { s: scripted({ work: { status: 'success' } }).handler } });
    expect(success.result.completedNodes).toEqual(['start', 'work', 'celebrate', 'exit']);
    const failure = await runInMemory(source, { handlers: { s: scripted({ work: { status: 'fail', failureReason: 'x' } }).handler } });
    expect(failure.result.completedNodes).toEqual(['start', 'work', 'repair', 'exit']);
  });

  it('executes with retry on failure (max_retries=2)', async () => {
    const s = scripted({ flaky: [{ status: 'fail' }, { status: 'retry' }, { status: 'success' }] });
    const { result } = await runInMemory(dot('  flaky [type="s", max_retries=2]\n  start -> flaky -> exit'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(s.attempts).toEqual(['flaky#1', 'flaky#2', 'flaky#3']);
    expect(result.retries).toBe(2);
  });

  const gate = dot('  impl [type="s", goal_gate=true, retry_target=impl]\n  start -> impl\n  impl -> exit [condition="outcome!=retry"]');

  it('goal gate blocks exit when unsatisfied', async () => {
    const s = scripted({ impl: [{ status: 'fail' }, { status: 'success' }] });
    const { result, events } = await runInMemory(gate, { handlers: { s: s.handler } });
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toHaveLength(1);
    expect(result.completedNodes).toEqual(['start', 'impl', 'impl', 'exit']);
    expect(result.status).toBe('success');
  });

  it('goal gate allows exit when all satisfied', async () => {
    const { result, events } = await runInMemory(gate, { handlers: { s: scripted({ impl: { status: 'success' } }).handler } });
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toHaveLength(0);
    expect(result.completedNodes).toEqual(['start', 'impl', 'exit']);
  });

  const fanout = (edges: string) =>
    dot(`  a [type="s"]\n  x [type="s"]\n  y [type="s"]\n  z [type="s"]\n  start -> a\n${edges}\n  x -> exit\n  y -> exit\n  z -> exit`);

  it('edge selection: condition match wins over weight', async () => {
    const { result } = await runInMemory(fanout('  a -> x [weight=50]\n  a -> y [weight=100]\n  a -> z [condition="outcome=success"]'), { handlers: { s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'z', 'exit']);
  });

  it('edge selection: weight breaks ties for unconditional edges', async () => {
    const { result } = await runInMemory(fanout('  a -> x [weight=1]\n  a -> y [weight=7]\n  a -> z [weight=3]'), { handlers: { s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'y', 'exit']);
  });

  it('edge selection: lexical tiebreak as final fallback', async () => {
    const { result } = await runInMemory(fanout('  a -> z\n  a -> y\n  a -> x'), { handlers: { s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'x', 'exit']);
  });

  it('context updates from one node are visible to the next', async () => {
    let seen: unknown;
    const s = scripted({
      producer: { status: 'success', contextUpdates: { 'context.artifact': 'v1' } },
      consumer: ({ context }) => {
        seen = context.get('context.artifact');
        return { status: 'success' };
      },
    });
    await runInMemory(dot('  producer [type="s"]\n  consumer [type="s"]\n  start -> producer -> consumer -> exit'), { handlers: { s: s.handler } });
    expect(seen).toBe('v1');
  });

  it('checkpoint save and resume produces the same result', async () => {
    const source = dot('  a [type="s"]\n  b [type="s"]\n  c [type="s"]\n  start -> a -> b -> c -> exit');
    const pure: Handler = { execute: ({ node, context }) => ({ status: 'success', contextUpdates: { [node.id]: context.getString('trail') + node.id, trail: context.getString('trail') + node.id } }) };
    const straight = await run(source, { handlers: { s: pure } });

    const controller = new AbortController();
    let stopped = false;
    const stopAtB: Handler = {
      execute: (input) => {
        if (input.node.id === 'b' && !stopped) {
          stopped = true;
          controller.abort();
          return untilAborted(input.signal);
        }
        return pure.execute(input);
      },
    };
    const first = await run(source, { handlers: { s: stopAtB }, signal: controller.signal, source });
    expect(first.result.status).toBe('interrupted');
    expect(checkpointAt(first.logsRoot).completed_nodes).toEqual(['start', 'a']);
    const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: pure }) });
    expect(resumed.status).toBe('success');
    expect(resumed.completedNodes).toEqual(straight.result.completedNodes);
    expect(resumed.context).toEqual(straight.result.context);
    expect(resumed.context.trail).toBe('abc');
  });

  it('prompt variable expansion ($goal) works', async () => {
    const source = dot('  a [prompt="Achieve: $goal!"]\n  start -> a -> exit', 'P', 'goal="world peace"');
    const { logsRoot } = await run(source);
    expect(readFileSync(join(logsRoot, 'a', 'prompt.md'), 'utf8')).toBe('Achieve: world peace!');
  });

  it('custom handler registration and execution works', async () => {
    const registry = createDefaultRegistry({ backend: simulationBackend }).register('my_custom_type', {
      execute: ({ node }) => ({ status: 'success', contextUpdates: { custom: node.attributes.custom_attr ?? null } }),
    });
    const { result } = await runInMemory(dot('  n [type="my_custom_type", custom_attr="value"]\n  start -> n -> exit'), { registry });
    expect(result.status).toBe('success');
    expect(result.context.custom).toBe('value');
  });

  it('a pipeline with 10+ nodes completes without errors', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `step${String(i + 1).padStart(2, '0')}`);
    const body = [
      ...ids.map((id, i) => (i % 3 === 2 ? `  ${id} [shape=parallelogram, tool_command="echo ${id}"]` : `  ${id} [prompt="do ${id}"]`)),
      `  start -> ${ids.join(' -> ')} -> exit`,
    ].join('\n');
    const { result, logsRoot, events } = await run(dot(body));
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', ...ids, 'exit']);
    expect(eventsOf(events, 'stage.failed')).toHaveLength(0);
    expect(result.context['tool.output']).toBe('step12');
    for (const id of ids) expect(existsSync(join(logsRoot, id, 'status.json')), id).toBe(true);
    expect(checkpointAt(logsRoot).completed_nodes).toHaveLength(14);
  });
});

/**
 * The same kind of rows for the handlers orchestra adds to §11.6's list: the
 * manager loop (§4.11) and the sub-pipeline node (§9.4), each run as a user
 * writes them, with the simulation backend behind the LLM stages.
 */
describe('spec §11.6 / §11.12 rows for the manager loop and the sub-pipeline node', () => {
  /** A child pipeline of two LLM stages in a new directory; returns the parent's file path there. */
  function withChild(): { dir: string; parentFile: string } {
    const dir = tempDir();
    writeFileSync(join(dir, 'child.dot'), dot('  draft [prompt="Draft about $goal"]\n  polish [prompt="Polish"]\n  start -> draft -> polish -> exit', 'Child', 'goal="otters"'));
    return { dir, parentFile: join(dir, 'parent.dot') };
  }

  it('manager loop: shape=house resolves to stack.manager_loop, starts the child, observes it to its end and succeeds', async () => {
    const { parentFile } = withChild();
    const source = dot('  boss [shape=house, manager.poll_interval="20ms"]\n  start -> boss -> exit', 'Parent', 'stack.child_dotfile="child.dot"');
    const { result, logsRoot, events } = await run(source, { sourceFile: parentFile, source });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'boss', 'exit']);
    expect(result.context).toMatchObject({ 'stack.child.status': 'completed', 'stack.child.outcome': 'success', 'stack.child.completed_nodes': 4 });
    const childRun = join(logsRoot, 'boss', 'child-1');
    expect(readFileSync(join(childRun, 'polish', 'response.md'), 'utf8')).toBe('[Simulated] Response for stage: polish');
    expect(eventsOf(events, 'stage.failed')).toHaveLength(0);
  });

  it('sub-pipeline: type="pipeline" runs the child as one step; listed keys go in and come back, its outcome routes the parent', async () => {
    const { parentFile } = withChild();
    const source = dot(
      '  sub [type="pipeline", pipeline="child.dot", pipeline.inputs="topic", pipeline.outputs="last_stage"]\n  after [prompt="After"]\n  start -> sub\n  sub -> after [condition="outcome=success"]\n  after -> exit',
      'Parent',
    );
    const { result, logsRoot } = await run(source, { sourceFile: parentFile, source, initialContext: { topic: 'rivers' } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'sub', 'after', 'exit']);
    expect(result.context.last_stage).toBe('after'); // the child's value came back, then `after` wrote its own
    expect(checkpointAt(join(logsRoot, 'sub', 'run-1')).completed_nodes).toEqual(['start', 'draft', 'polish', 'exit']);
  });
});
