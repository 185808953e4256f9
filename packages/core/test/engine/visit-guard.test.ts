import { describe, expect, it } from 'vitest';
import { resumePipeline, type Handler } from '../../src/index.js';
import { DEFAULT_MAX_VISITS } from '../../src/engine/visit-guard.js';
import { bounded, dot, eventsOf, journalAt, registryWith, run, runInMemory, scripted, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** start -> a -> b; b -> a while `context.again=yes`, b -> exit otherwise. */
function loop(aAttrs = '', graphAttrs = ''): string {
  return dot(
    `  a [type="s"${aAttrs ? `, ${aAttrs}` : ''}]\n  b [type="s"]\n  start -> a -> b\n  b -> a [condition="context.again=yes"]\n  b -> exit [condition="context.again=no"]`,
    'Loop',
    graphAttrs,
  );
}

/** b asks for another round `rounds - 1` times, then lets the run end. */
function rounds(n: number) {
  let seen = 0;
  return scripted({ b: () => ({ status: 'success', contextUpdates: { again: ++seen < n ? 'yes' : 'no' } }) });
}

describe('runaway-loop guard: max_visits (orchestra extension)', () => {
  it(`fails a run whose node would run more than ${DEFAULT_MAX_VISITS} times, naming the node and the loop`, async () => {
    const s = scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
    const { result, events } = await runInMemory(loop(), { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(s.count('a')).toBe(DEFAULT_MAX_VISITS);
    expect(s.count('b')).toBe(DEFAULT_MAX_VISITS);
    expect(result.failureReason).toBe(
      `node a already ran ${DEFAULT_MAX_VISITS} times (max_visits=${DEFAULT_MAX_VISITS}): the run is looping through a -> b -> a; raise max_visits on a (or default_max_visits on the graph; 0 for no limit) if the loop is meant to go on`,
    );
    expect(eventsOf(events, 'pipeline.failed')[0]?.failureReason).toBe(result.failureReason);
  });

  it('takes the node attribute first, then the graph default; 0 lifts the limit; a loop within its limit runs to the end', async () => {
    const node = scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
    expect((await runInMemory(loop('max_visits=3', 'default_max_visits=50'), { handlers: { s: node.handler } })).result.failureReason).toMatch(/^node a already ran 3 times \(max_visits=3\)/);
    expect(node.count('a')).toBe(3);

    const graph = scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
    const failed = await runInMemory(loop('', 'default_max_visits=4'), { handlers: { s: graph.handler } });
    expect(failed.result.failureReason).toMatch(/^node a already ran 4 times \(max_visits=4\)/);

    const unlimited = rounds(DEFAULT_MAX_VISITS + 50);
    const long = await runInMemory(loop('', 'default_max_visits=0'), { handlers: { s: unlimited.handler } });
    expect(long.result.status).toBe('success');
    expect(unlimited.count('a')).toBe(DEFAULT_MAX_VISITS + 50);

    const exact = rounds(5);
    expect((await runInMemory(loop('max_visits=5'), { handlers: { s: exact.handler } })).result.status).toBe('success');
  });

  it('does not count retries of one visit', async () => {
    const s = scripted({ a: [{ status: 'fail' }, { status: 'fail' }, { status: 'success' }], b: { status: 'success', contextUpdates: { again: 'no' } } });
    const { result } = await runInMemory(loop('max_visits=1, max_retries=2'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(s.count('a')).toBe(3);
  });

  it('counts the visits made before a resume', async () => {
    const controller = new AbortController();
    let bRuns = 0;
    const first: Handler = {
      execute(input) {
        if (input.node.id !== 'b') return { status: 'success' };
        bRuns += 1;
        if (bRuns === 3) {
          controller.abort();
          return untilAborted(input.signal);
        }
        return { status: 'success', contextUpdates: { again: 'yes' } };
      },
    };
    const source = loop('max_visits=4');
    const interrupted = await run(source, { handlers: { s: first }, signal: controller.signal, source });
    expect(interrupted.result.status).toBe('interrupted');
    expect(journalAt(interrupted.logsRoot).filter((e) => e.node === 'a')).toHaveLength(3);

    const again = scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
    const resumed = await resumePipeline(interrupted.logsRoot, bounded({ registry: registryWith({ s: again.handler }) }));
    expect(resumed.status).toBe('fail');
    expect(again.count('a')).toBe(1); // the fourth visit; a fifth is refused
    expect(resumed.failureReason).toMatch(/^node a already ran 4 times \(max_visits=4\)/);
  });

  it('guards loops inside a parallel branch too: the branch fails with the same message', async () => {
    const source = dot(
      [
        '  fan [shape=component]',
        '  a [type="s", max_visits=2]',
        '  b [type="s"]',
        '  join [shape=tripleoctagon]',
        '  start -> fan -> a -> b',
        '  b -> a [condition="context.again=yes"]',
        '  b -> join [condition="context.again=no"]',
        '  join -> exit',
      ].join('\n'),
    );
    const s = scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
    const { result } = await runInMemory(source, { handlers: { s: s.handler } });
    const branches = result.context['parallel.results'] as Record<string, unknown>[];
    expect(branches).toEqual([
      expect.objectContaining({
        id: 'a',
        status: 'fail',
        completed_nodes: ['a', 'b', 'a', 'b'],
        stopped_at: 'a',
        failure_reason: expect.stringMatching(/^node a already ran 2 times \(max_visits=2\): the run is looping through a -> b -> a/),
      }),
    ]);
    // The failed parallel node then follows its one edge into the same loop in the main run, which is guarded as well.
    expect(result.completedNodes).toEqual(['start', 'fan', 'a', 'b', 'a', 'b']);
    expect(result.failureReason).toMatch(/^node a already ran 2 times/);
  });
});

describe('step limit: RunOptions.maxSteps (orchestra extension)', () => {
  const forever = () => scripted({ b: { status: 'success', contextUpdates: { again: 'yes' } } });
  const limitReason = (n: number) => `the run took more than ${n} steps (maxSteps=${n}) without ending`;

  it('fails a run that takes more steps, before the step past the limit runs anything', async () => {
    const s = forever();
    const { result, events } = await runInMemory(loop('', 'default_max_visits=0'), { handlers: { s: s.handler }, maxSteps: 7 });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe(limitReason(7));
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(s.calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b']);
    expect(eventsOf(events, 'pipeline.failed')).toEqual([expect.objectContaining({ failureReason: limitReason(7), nodesRun: 7 })]);
  });

  it('lets a run of exactly maxSteps steps end; retries of a node are part of its step', async () => {
    const s = scripted({ a: [{ status: 'fail' }, { status: 'success' }], b: { status: 'success', contextUpdates: { again: 'no' } } });
    const { result } = await runInMemory(loop('max_retries=1'), { handlers: { s: s.handler }, maxSteps: 4 });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'b', 'exit']);
    const short = await runInMemory(loop(), { handlers: { s: rounds(1).handler }, maxSteps: 3 });
    expect(short.result).toMatchObject({ status: 'fail', failureReason: limitReason(3), completedNodes: ['start', 'a', 'b'] });
  });

  it('counts the exit sending the run back to a goal gate as a step', async () => {
    // start, impl (fails), exit -> back to impl, impl, exit: 4 nodes run and 1 jump.
    const source = dot('  impl [type="s", goal_gate=true, retry_target=impl]\n  start -> impl\n  impl -> exit [condition="outcome!=retry"]');
    const ok = await runInMemory(source, { handlers: { s: scripted({ impl: [{ status: 'fail' }, { status: 'success' }] }).handler }, maxSteps: 5 });
    expect(ok.result.status).toBe('success');
    expect(ok.result.completedNodes).toEqual(['start', 'impl', 'impl', 'exit']);
    const cut = await runInMemory(source, { handlers: { s: scripted({ impl: [{ status: 'fail' }, { status: 'success' }] }).handler }, maxSteps: 4 });
    expect(cut.result).toMatchObject({ status: 'fail', failureReason: limitReason(4), completedNodes: ['start', 'impl', 'impl'] });
  });

  it('counts across loop_restart, which max_visits cannot bound (every run starts afresh)', async () => {
    // a restarts the run at a for as long as done != yes, which never comes.
    const source = dot('  a [type="s"]\n  start -> a\n  a -> a [loop_restart=true, condition="context.done!=yes"]\n  a -> exit [condition="context.done=yes"]');
    const s = scripted();
    const { result } = await run(source, { handlers: { s: s.handler }, maxSteps: 5 });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe(limitReason(5));
    expect(s.count('a')).toBe(4); // start, a | a | a | a: the sixth step is refused
  });

  it('counts each call on its own: a resumed run gets the whole limit again', async () => {
    const controller = new AbortController();
    const stopping = scripted({ b: () => (controller.abort(), { status: 'success', contextUpdates: { again: 'yes' } }) });
    const source = loop('', 'default_max_visits=0');
    const first = await run(source, { handlers: { s: stopping.handler }, signal: controller.signal, source, maxSteps: 3 });
    expect(first.result.status).toBe('interrupted');
    expect(first.result.completedNodes).toEqual(['start', 'a']); // b was interrupted: it is run again
    const resumed = await resumePipeline(first.logsRoot, { registry: registryWith({ s: forever().handler }), maxSteps: 3 });
    expect(resumed).toMatchObject({ status: 'fail', failureReason: limitReason(3), completedNodes: ['start', 'a', 'b', 'a', 'b'] });
  });
});
