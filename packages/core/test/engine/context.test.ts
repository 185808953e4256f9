import { describe, expect, it } from 'vitest';
import { ContextValueError, OrchestraError, RunContext, type HandlerInput } from '../../src/index.js';
import { checkpointAt, dot, journalAt, run, runInMemory, scripted, useTempDirs } from './engine-helpers.js';

useTempDirs();

describe('RunContext (spec §5.1)', () => {
  it('sets and gets JSON values, with a fallback for missing keys', () => {
    const ctx = new RunContext({ a: 1 });
    ctx.set('s', 'text');
    ctx.set('n', 2.5);
    ctx.set('b', false);
    ctx.set('z', null);
    ctx.set('list', [1, 'two', { three: 3 }]);
    expect(ctx.get('a')).toBe(1);
    expect(ctx.get('s')).toBe('text');
    expect(ctx.get('b')).toBe(false);
    expect(ctx.get('z')).toBeNull();
    expect(ctx.get('list')).toEqual([1, 'two', { three: 3 }]);
    expect(ctx.get('missing')).toBeUndefined();
    expect(ctx.get('missing', 'dflt')).toBe('dflt');
    expect(ctx.has('a')).toBe(true);
    expect(ctx.has('missing')).toBe(false);
  });

  it('getString renders values as strings, objects as JSON, and falls back for missing or null', () => {
    const ctx = new RunContext({ s: 'x', n: 42, b: true, o: { k: [1] }, z: null });
    expect(ctx.getString('s')).toBe('x');
    expect(ctx.getString('n')).toBe('42');
    expect(ctx.getString('b')).toBe('true');
    expect(ctx.getString('o')).toBe('{"k":[1]}');
    expect(ctx.getString('z', 'none')).toBe('none');
    expect(ctx.getString('missing')).toBe('');
    expect(ctx.getString('missing', 'fb')).toBe('fb');
  });

  it('copies values in and out: later mutation by the caller does not change the context', () => {
    const ctx = new RunContext();
    const value = { nested: { list: [1, 2] } };
    ctx.set('v', value);
    value.nested.list.push(3);
    expect(ctx.get('v')).toEqual({ nested: { list: [1, 2] } });
    const out = ctx.get('v') as { nested: { list: number[] } };
    out.nested.list.push(99);
    expect(ctx.get('v')).toEqual({ nested: { list: [1, 2] } });
    const snap = ctx.snapshot();
    (snap.v as { nested: { list: number[] } }).nested.list.length = 0;
    expect(ctx.get('v')).toEqual({ nested: { list: [1, 2] } });
  });

  it('drops undefined object properties and keeps null ones', () => {
    const ctx = new RunContext();
    ctx.set('o', { keep: null, drop: undefined });
    expect(ctx.get('o')).toEqual({ keep: null });
    expect(Object.keys(ctx.get('o') as object)).toEqual(['keep']);
  });

  it('snapshot is a plain deep copy of every value; applyUpdates merges', () => {
    const ctx = new RunContext({ a: 1, b: { c: 2 } });
    ctx.applyUpdates({ b: { c: 3 }, d: 'new' });
    expect(ctx.snapshot()).toEqual({ a: 1, b: { c: 3 }, d: 'new' });
  });

  it('clone is independent and carries the log', () => {
    const ctx = new RunContext({ a: { n: 1 } });
    ctx.appendLog('first');
    const copy = ctx.clone();
    copy.set('a', { n: 2 });
    copy.appendLog('second');
    ctx.set('b', true);
    expect(ctx.get('a')).toEqual({ n: 1 });
    expect(copy.get('a')).toEqual({ n: 2 });
    expect(copy.has('b')).toBe(false);
    expect(ctx.logs).toEqual(['first']);
    expect(copy.logs).toEqual(['first', 'second']);
    // What either hands out is a copy: changing it reaches neither context (the two share stored values).
    const shared = new RunContext({ list: [1, 2] });
    const branch = shared.clone();
    (branch.get('list') as number[]).push(3);
    (branch.snapshot().list as number[]).push(4);
    (shared.get('list') as number[]).push(5);
    expect(branch.get('list')).toEqual([1, 2]);
    expect(shared.get('list')).toEqual([1, 2]);
    expect(branch.takeChanges()).toEqual({}); // a fresh copy has no changes of its own
  });

  it('records the keys written since the last takeChanges', () => {
    const ctx = new RunContext({ initial: 1 });
    expect(ctx.takeChanges()).toEqual({});
    ctx.set('a', 1);
    ctx.applyUpdates({ b: 2, a: 3 });
    expect(ctx.takeChanges()).toEqual({ a: 3, b: 2 });
    expect(ctx.takeChanges()).toEqual({});
  });

  it('refuses values that are not JSON data with ContextValueError (ORCH_CONTEXT_VALUE)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    class Custom {
      x = 1;
    }
    const bad: [string, unknown][] = [
      ['function', () => 1],
      ['cycle', cyclic],
      ['array cycle', (() => {
        const arr: unknown[] = [];
        arr.push(arr);
        return arr;
      })()],
      ['Date', new Date()],
      ['Map', new Map()],
      ['Set', new Set([1])],
      ['class instance', new Custom()],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['bigint', 10n],
      ['symbol', Symbol('s')],
      ['undefined', undefined],
      ['nested Date', { when: [new Date()] }],
    ];
    for (const [name, value] of bad) {
      const ctx = new RunContext({ keep: 'me' });
      let error: unknown;
      try {
        ctx.set('k', value);
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(ContextValueError);
      expect(error, name).toBeInstanceOf(OrchestraError);
      expect((error as ContextValueError).code).toBe('ORCH_CONTEXT_VALUE');
      expect((error as Error).message).toContain('"k"');
      // The context is unchanged.
      expect(ctx.snapshot(), name).toEqual({ keep: 'me' });
    }
    expect(() => new RunContext({ f: () => 1 })).toThrow(ContextValueError);
    expect(() => new RunContext().applyUpdates({ ok: 1, bad: Number.NaN })).toThrow(ContextValueError);
  });

  it('accepts shared (non-cyclic) references and objects without a prototype', () => {
    const shared = { x: 1 };
    const ctx = new RunContext();
    ctx.set('pair', [shared, shared]);
    const bare = Object.create(null) as Record<string, unknown>;
    bare.y = 2;
    ctx.set('bare', bare);
    expect(ctx.get('pair')).toEqual([{ x: 1 }, { x: 1 }]);
    expect(ctx.get('bare')).toEqual({ y: 2 });
  });
});

describe('context in a run (spec §5.1, §11.7)', () => {
  it('sets the built-in keys graph.goal, current_node, outcome and preferred_label', async () => {
    const seen: Record<string, unknown>[] = [];
    const s = scripted({
      a: ({ context }) => {
        seen.push({ goal: context.get('graph.goal'), current: context.get('current_node'), outcome: context.get('outcome') });
        return { status: 'success', preferredLabel: 'next' };
      },
      b: ({ context }) => {
        seen.push({ current: context.get('current_node'), outcome: context.get('outcome'), label: context.get('preferred_label') });
        return { status: 'partial_success' };
      },
    });
    const { result } = await runInMemory(dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit', 'P', 'goal="Write docs"'), { handlers: { s: s.handler } });
    expect(seen).toEqual([
      { goal: 'Write docs', current: 'a', outcome: 'success' },
      { current: 'b', outcome: 'success', label: 'next' },
    ]);
    expect(result.context['graph.goal']).toBe('Write docs');
    expect(result.context.current_node).toBe('exit');
    // preferred_label keeps the last non-empty one.
    expect(result.context.preferred_label).toBe('next');
  });

  it('makes context updates of one node visible to the next (contextUpdates and direct writes)', async () => {
    const observed: unknown[] = [];
    const s = scripted({
      a: ({ context }) => {
        context.set('direct', { from: 'a' });
        return { status: 'success', contextUpdates: { 'context.plan': ['step1', 'step2'], count: 1 } };
      },
      b: ({ context }) => {
        observed.push(context.get('context.plan'), context.get('count'), context.get('direct'));
        return { status: 'success', contextUpdates: { count: (context.get('count') as number) + 1 } };
      },
    });
    const { result, logsRoot } = await run(dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit'), { handlers: { s: s.handler } });
    expect(observed).toEqual([['step1', 'step2'], 1, { from: 'a' }]);
    expect(result.context.count).toBe(2);
    expect(result.context.direct).toEqual({ from: 'a' });
    // Both kinds of write are journaled with the node that made them, so resume sees them.
    expect(journalAt(logsRoot).find((e) => e.node === 'a')?.context).toMatchObject({ direct: { from: 'a' }, 'context.plan': ['step1', 'step2'], count: 1 });
    expect(checkpointAt(logsRoot).context).toMatchObject({ count: 2, direct: { from: 'a' } });
  });

  it('starts from initialContext, and edge conditions read context values with or without the context. prefix', async () => {
    const source = dot(
      '  a [type="s"]\n  x [type="s"]\n  y [type="s"]\n  start -> a\n  a -> x [condition="context.mode=fast"]\n  a -> y [condition="mode=slow"]\n  x -> exit\n  y -> exit',
    );
    const fast = await runInMemory(source, { handlers: { s: scripted().handler }, initialContext: { mode: 'fast' } });
    expect(fast.result.completedNodes).toEqual(['start', 'a', 'x', 'exit']);
    expect(fast.result.context.mode).toBe('fast');
    const slow = await runInMemory(source, { handlers: { s: scripted().handler }, initialContext: { mode: 'slow' } });
    expect(slow.result.completedNodes).toEqual(['start', 'a', 'y', 'exit']);
  });

  it('gives handlers a context that cannot be corrupted through retained references', async () => {
    let kept: { list: number[] } | undefined;
    const s = scripted({
      a: () => {
        const value = { list: [1] };
        kept = value;
        return { status: 'success', contextUpdates: { v: value } };
      },
      b: ({ context }: HandlerInput) => {
        kept?.list.push(2);
        return { status: 'success', contextUpdates: { seen: context.get('v') ?? null } };
      },
    });
    const { result } = await runInMemory(dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit'), { handlers: { s: s.handler } });
    expect(result.context.v).toEqual({ list: [1] });
    expect(result.context.seen).toEqual({ list: [1] });
  });

  it('records the run log in the checkpoint', async () => {
    const s = scripted({
      a: ({ context }) => {
        context.appendLog('a did something');
        return { status: 'success' };
      },
    });
    const { logsRoot } = await run(dot('  a [type="s"]\n  start -> a -> exit'), { handlers: { s: s.handler } });
    expect(checkpointAt(logsRoot).logs).toEqual(['a did something']);
  });
});
