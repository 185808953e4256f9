import { describe, expect, it } from 'vitest';
import { resumePipeline, type Handler, type JsonValue } from '../../src/index.js';
import { checkpointAt, dot, eventsOf, registryWith, run, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const PIPELINE = dot('  work [type="steps"]\n  start -> work -> exit');

/**
 * A handler that does three steps, saving after each; it stops the run
 * (via `stop`) when it reaches `stopAt`, and records what it got back.
 */
function steps(stop?: { controller: AbortController; at: number }) {
  const seen: (JsonValue | undefined)[] = [];
  const handler: Handler = {
    async execute(input) {
      seen.push(input.progress);
      let done = typeof input.progress === 'number' ? input.progress : 0;
      while (done < 3) {
        done += 1;
        input.saveProgress(done);
        if (stop && done === stop.at) {
          stop.controller.abort(new Error('test stop'));
          await untilAborted(input.signal);
        }
      }
      return { status: 'success', contextUpdates: { steps: done } };
    },
  };
  return { handler, seen };
}

describe('in-node progress (HandlerInput.progress / saveProgress)', () => {
  it('is in checkpoint.json as soon as it is saved, and dropped when the node completes', async () => {
    let logsRoot = '';
    const snapshots: unknown[] = [];
    const handler: Handler = {
      async execute(input) {
        await input.saveProgress({ step: 1 });
        snapshots.push(checkpointAt(logsRoot).node_progress);
        await input.saveProgress(undefined);
        snapshots.push(checkpointAt(logsRoot).node_progress);
        await input.saveProgress({ step: 2 });
        return { status: 'success' };
      },
    };
    const out = await run(PIPELINE, { handlers: { steps: handler }, onEvent: (e) => e.type === 'pipeline.started' && (logsRoot = e.logsRoot) });
    expect(snapshots).toEqual([{ work: { step: 1 } }, {}]);
    expect(checkpointAt(out.logsRoot).node_progress).toEqual({});
    expect(eventsOf(out.events, 'checkpoint.saved').filter((e) => e.nodeId === 'work' && e.completedNodes === 1)).toHaveLength(3);
  });

  it('a resumed run hands the node what it saved before the stop', async () => {
    const controller = new AbortController();
    const first = steps({ controller, at: 2 });
    const out = await run(PIPELINE, { handlers: { steps: first.handler }, signal: controller.signal, source: PIPELINE });
    expect(out.result.status).toBe('interrupted');
    expect(checkpointAt(out.logsRoot).node_progress).toEqual({ work: 2 });

    const second = steps();
    const resumed = await resumePipeline(out.logsRoot, { registry: registryWith({ steps: second.handler }) });
    expect(resumed.status).toBe('success');
    expect(second.seen).toEqual([2]);
    expect(resumed.context.steps).toBe(3);
  });

  it('a retry gets the progress of the failed attempt; a later visit of the node starts afresh', async () => {
    const seen: (JsonValue | undefined)[] = [];
    let calls = 0;
    const handler: Handler = {
      execute(input) {
        calls += 1;
        seen.push(input.progress);
        input.saveProgress(calls);
        return calls === 1 ? { status: 'retry' } : { status: 'success' };
      },
    };
    const source = dot('  work [type="steps", max_retries=1]\n  again [shape=diamond]\n  start -> work -> again\n  again -> work [condition="context.looped!=yes", weight=2]\n  again -> exit', 'P');
    let visits = 0;
    const looping: Handler = { execute: () => ({ status: 'success', contextUpdates: { looped: ++visits > 1 ? 'yes' : 'no' } }) };
    const out = await run(source, { handlers: { steps: handler, conditional: looping } });
    expect(out.result.status).toBe('success');
    expect(out.result.completedNodes).toEqual(['start', 'work', 'again', 'work', 'again', 'exit']);
    expect(seen).toEqual([undefined, 1, undefined]);
  });

  it('refuses data that is not JSON, naming the node', async () => {
    const handler: Handler = {
      execute(input) {
        void input.saveProgress({ callback: (() => 1) as unknown as JsonValue });
        return { status: 'success' };
      },
    };
    const out = await run(PIPELINE, { handlers: { steps: handler } });
    expect(out.result.status).toBe('fail');
    expect(out.result.failureReason).toMatch(/the progress saved by node "work" is a function; it must be JSON data/);
  });
});
