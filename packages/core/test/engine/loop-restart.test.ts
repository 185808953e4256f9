import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventBus, resumePipeline, type Handler, type RunEvent } from '../../src/index.js';
import { readManifest } from '../../src/store.js';
import { checkpointAt, dot, eventsOf, journalAt, registryWith, run, useTempDirs } from './engine-helpers.js';

useTempDirs();

/**
 * start -> a; a -> b restarts the run while context.again=yes; b -> a; a -> exit otherwise.
 * `a` answers "yes" for its first `restarts` calls (counted across runs), then "no".
 */
const SOURCE = dot(
  '  a [type="s"]\n  b [type="s"]\n  start -> a\n  a -> b [loop_restart=true, condition="context.again=yes"]\n  a -> exit [condition="context.again!=yes"]\n  b -> a',
);

function restarting(restarts: number): Handler {
  let calls = 0;
  return {
    execute({ node, context }) {
      if (node.id !== 'a') return { status: 'success', contextUpdates: { [`${node.id}.ran`]: true } };
      calls++;
      const previous = context.get('a.calls_seen', 0) as number;
      return { status: 'success', contextUpdates: { again: calls <= restarts ? 'yes' : 'no', [`run${calls}.marker`]: true, 'a.calls_seen': previous + 1 } };
    },
  };
}

describe('loop_restart (spec §2.7, §3.2 step 7)', () => {
  it('ends the run and continues in <logsRoot>-restart-1 at the edge target with a fresh context', async () => {
    const { result, logsRoot, events } = await run(SOURCE, { handlers: { s: restarting(1) }, initialContext: { keep: 'me' }, source: SOURCE });
    const next = `${logsRoot}-restart-1`;
    expect(result.status).toBe('success');
    expect(result.logsRoot).toBe(next);
    expect(result.completedNodes).toEqual(['b', 'a', 'exit']);
    // Fresh context: initialContext kept, nothing of the first run.
    expect(result.context.keep).toBe('me');
    expect(result.context).not.toHaveProperty('run1.marker');
    expect(result.context['run2.marker']).toBe(true);
    expect(result.context['a.calls_seen']).toBe(1);

    const old = checkpointAt(logsRoot);
    expect(old).toMatchObject({ status: 'restarted', restarted_to: next, completed_nodes: ['start', 'a'], next_node: 'b' });
    expect(journalAt(logsRoot).at(-1)).toMatchObject({ node: 'a', next: 'b', end: 'restarted' });

    const manifest = readManifest(next);
    expect(manifest).toMatchObject({ start_node: 'b', restarted_from: logsRoot, initial_context: { keep: 'me' } });
    expect(readFileSync(join(next, 'pipeline.dot'), 'utf8')).toBe(SOURCE);
    expect(checkpointAt(next)).toMatchObject({ status: 'completed', completed_nodes: ['b', 'a', 'exit'] });
    expect(existsSync(join(next, 'start'))).toBe(false);

    expect(eventsOf(events, 'pipeline.restarted')).toEqual([expect.objectContaining({ from: 'a', to: 'b', logsRoot: next })]);
    expect(eventsOf(events, 'pipeline.started').map((e) => [e.logsRoot, e.startNode])).toEqual([
      [logsRoot, 'start'],
      [next, 'b'],
    ]);
  });

  it('numbers successive restarts -restart-1, -restart-2, ...', async () => {
    const { result, logsRoot } = await run(SOURCE, { handlers: { s: restarting(2) } });
    expect(result.logsRoot).toBe(`${logsRoot}-restart-2`);
    expect(checkpointAt(`${logsRoot}-restart-1`)).toMatchObject({ status: 'restarted', restarted_to: `${logsRoot}-restart-2` });
    expect(readManifest(`${logsRoot}-restart-2`).restarted_from).toBe(`${logsRoot}-restart-1`);
  });

  it('resuming a restarted run points at the run that continued it', async () => {
    const { logsRoot } = await run(SOURCE, { handlers: { s: restarting(1) }, source: SOURCE });
    const again = await resumePipeline(logsRoot, { registry: registryWith({ s: restarting(0) }) });
    expect(again.alreadyFinished).toBe(true);
    expect(again.logsRoot).toBe(`${logsRoot}-restart-1`);
  });

  it('delivers each event once to onEvent when a caller-supplied EventBus is also given', async () => {
    const bus = new EventBus();
    const onBus: RunEvent[] = [];
    bus.on((e) => onBus.push(e));
    const { events } = await run(SOURCE, { handlers: { s: restarting(1) }, events: bus });
    expect(onBus.length).toBeGreaterThan(0);
    expect(events).toHaveLength(onBus.length);
    expect(eventsOf(events, 'pipeline.started')).toHaveLength(2);
  });
});
