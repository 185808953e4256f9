import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EventBus, type RunEvent } from '../../src/index.js';
import { dot, eventsOf, run, runInMemory, scripted, typesOf, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const linear = dot('  a [type="s"]\n  start -> a -> exit');

function readEvents(logsRoot: string): RunEvent[] {
  const text = readFileSync(join(logsRoot, 'events.jsonl'), 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
}

describe('run events (spec §9.6)', () => {
  it('come in order for a linear run', async () => {
    const { events, logsRoot } = await run(linear, { handlers: { s: scripted({ a: { status: 'success', notes: 'did a' } }).handler } });
    expect(typesOf(events)).toEqual([
      'pipeline.started',
      'stage.started',
      'stage.completed',
      'edge.selected',
      'checkpoint.saved',
      'stage.started',
      'stage.completed',
      'edge.selected',
      'checkpoint.saved',
      'stage.started',
      'stage.completed',
      'checkpoint.saved',
      'pipeline.completed',
    ]);
    expect(events[0]).toMatchObject({ type: 'pipeline.started', pipeline: 'P', logsRoot, resumed: false, startNode: 'start' });
    expect(eventsOf(events, 'stage.started').map((e) => [e.nodeId, e.index, e.attempt, e.handlerType])).toEqual([
      ['start', 0, 1, 'start'],
      ['a', 1, 1, 's'],
      ['exit', 2, 1, 'exit'],
    ]);
    expect(eventsOf(events, 'stage.completed').map((e) => [e.nodeId, e.status])).toEqual([
      ['start', 'success'],
      ['a', 'success'],
      ['exit', 'success'],
    ]);
    expect(eventsOf(events, 'stage.completed')[1]?.notes).toBe('did a');
    expect(eventsOf(events, 'edge.selected').map((e) => [e.from, e.to])).toEqual([
      ['start', 'a'],
      ['a', 'exit'],
    ]);
    expect(eventsOf(events, 'checkpoint.saved').map((e) => [e.nodeId, e.completedNodes])).toEqual([
      ['start', 1],
      ['a', 2],
      ['exit', 3],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'pipeline.completed', status: 'success', nodesRun: 3, retries: 0 });
    for (const e of eventsOf(events, 'stage.completed')) expect(e.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('stamp every event with an ISO time, in non-decreasing order', async () => {
    const { events } = await runInMemory(linear, { handlers: { s: scripted().handler } });
    const times = events.map((e) => Date.parse(e.at));
    for (const e of events) expect(e.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1] as number);
  });

  it('are all written to events.jsonl, one JSON object per line, as they were emitted', async () => {
    const retried = dot('  a [type="s", max_retries=1]\n  start -> a -> exit');
    const { events, logsRoot } = await run(retried, { handlers: { s: scripted({ a: [{ status: 'fail' }, { status: 'success' }] }).handler } });
    expect(typesOf(events)).toContain('stage.retrying');
    const written = readEvents(logsRoot);
    expect(written).toEqual(JSON.parse(JSON.stringify(events)));
    for (const e of written) {
      expect(typeof e.type).toBe('string');
      expect(typeof e.at).toBe('string');
    }
  });

  it('end with pipeline.failed for a failed run', async () => {
    const { events, logsRoot } = await run(linear, { handlers: { s: scripted({ a: { status: 'fail', failureReason: 'bad' } }).handler } });
    expect(typesOf(events).slice(-3)).toEqual(['stage.failed', 'checkpoint.saved', 'pipeline.failed']);
    expect(events.at(-1)).toMatchObject({ type: 'pipeline.failed', failureReason: 'a failed: bad', nodesRun: 2 });
    expect(eventsOf(events, 'stage.failed')[0]).toMatchObject({ nodeId: 'a', failureReason: 'bad', willRetry: false });
    expect(readEvents(logsRoot).at(-1)?.type).toBe('pipeline.failed');
  });

  it('end with pipeline.interrupted, carrying the abort reason, for a cancelled run', async () => {
    const controller = new AbortController();
    const s = scripted({
      a: ({ signal }) => {
        controller.abort('user pressed Ctrl-C');
        return untilAborted(signal);
      },
    });
    const { events, logsRoot } = await run(linear, { handlers: { s: s.handler }, signal: controller.signal });
    expect(events.at(-1)).toMatchObject({ type: 'pipeline.interrupted', reason: 'user pressed Ctrl-C', lastNode: 'start' });
    expect(eventsOf(events, 'stage.completed').map((e) => e.nodeId)).toEqual(['start']);
    expect(readEvents(logsRoot).at(-1)?.type).toBe('pipeline.interrupted');
  });

  it('are delivered on a caller-supplied EventBus, whose stream() yields the same events', async () => {
    const bus = new EventBus();
    const stream = bus.stream();
    const streamed: RunEvent[] = [];
    const consumer = (async () => {
      for await (const e of stream) streamed.push(e);
    })();
    const { events } = await runInMemory(linear, { handlers: { s: scripted().handler }, events: bus });
    bus.close();
    await consumer;
    expect(streamed).toEqual(events);
    expect(streamed.at(-1)?.type).toBe('pipeline.completed');
  });
});

describe('EventBus', () => {
  it('stamps emitted events, isolates throwing listeners, and unsubscribes', () => {
    const bus = new EventBus();
    const seen: string[] = [];
    bus.on(() => {
      throw new Error('broken listener');
    });
    const off = bus.on((e) => seen.push(e.type));
    const event = bus.emit({ type: 'checkpoint.saved', nodeId: 'a', completedNodes: 1, file: false });
    expect(event.at).toEqual(expect.any(String));
    off();
    bus.emit({ type: 'checkpoint.saved', nodeId: 'b', completedNodes: 2, file: false });
    expect(seen).toEqual(['checkpoint.saved']);
  });

  it('stream() drains queued events after close, then ends; a stream opened after close is empty', async () => {
    const bus = new EventBus();
    const stream = bus.stream();
    bus.emit({ type: 'checkpoint.saved', nodeId: 'a', completedNodes: 1, file: false });
    bus.emit({ type: 'checkpoint.saved', nodeId: 'b', completedNodes: 2, file: false });
    bus.close();
    const got: string[] = [];
    for await (const e of stream) got.push(e.type === 'checkpoint.saved' ? e.nodeId : e.type);
    expect(got).toEqual(['a', 'b']);
    const late = await bus.stream().next();
    expect(late.done).toBe(true);
  });

  it('stream() stops receiving after return()', async () => {
    const bus = new EventBus();
    const stream = bus.stream();
    bus.emit({ type: 'checkpoint.saved', nodeId: 'a', completedNodes: 1, file: false });
    const first = await stream.next();
    expect(first.done).toBe(false);
    await stream.return?.();
    bus.emit({ type: 'checkpoint.saved', nodeId: 'b', completedNodes: 2, file: false });
    expect((await stream.next()).done).toBe(true);
  });
});
