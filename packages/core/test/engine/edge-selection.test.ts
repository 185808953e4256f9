import { describe, expect, it } from 'vitest';
import { RunContext, type Outcome } from '../../src/index.js';
import { normalizeLabel, parseAccelerator } from '../../src/loader.js';
import { selectEdge } from '../../src/handlers.js';
import { dot, eventsOf, graphFrom, runInMemory, scripted, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** A graph whose node `a` has the given outgoing edges (every target is declared and reachable). */
function fromA(edges: string, targets = ['b', 'c', 'd']): ReturnType<typeof graphFrom> {
  // Each target is also reached from start, so any subset of edges from `a` leaves the graph valid.
  const nodes = targets.map((t) => `  ${t} [type="s"]\n  start -> ${t}\n  ${t} -> exit`).join('\n');
  return graphFrom(dot(`  a [type="s"]\n  start -> a\n${nodes}\n${edges}`));
}

function choose(graph: ReturnType<typeof graphFrom>, outcome: Outcome, context = new RunContext(), failed = false): string | undefined {
  return selectEdge(graph, 'a', outcome, context, failed)?.edge.to;
}

const ok: Outcome = { status: 'success' };

describe('parseAccelerator / normalizeLabel (spec §3.3, §6)', () => {
  it('reads [K] Label, K) Label and K - Label prefixes', () => {
    expect(parseAccelerator('[A] Approve')).toEqual({ key: 'A', label: 'Approve' });
    expect(parseAccelerator('  [y]   yes please ')).toEqual({ key: 'Y', label: 'yes please' });
    expect(parseAccelerator('r) Reject')).toEqual({ key: 'R', label: 'Reject' });
    expect(parseAccelerator('2 - Second option')).toEqual({ key: '2', label: 'Second option' });
  });

  it('falls back to the first letter or digit of the label', () => {
    expect(parseAccelerator('approve it')).toEqual({ key: 'A', label: 'approve it' });
    expect(parseAccelerator('  -- 9 lives')).toEqual({ key: '9', label: '-- 9 lives' });
    expect(parseAccelerator('!!!')).toEqual({ key: '', label: '!!!' });
    // `K)` without a space is not a prefix.
    expect(parseAccelerator('K)Label')).toEqual({ key: 'K', label: 'K)Label' });
  });

  it('uses the fallback (the target id) for an empty label', () => {
    expect(parseAccelerator('', 'deploy_now')).toEqual({ key: 'D', label: 'deploy_now' });
    expect(parseAccelerator('   ', 'x')).toEqual({ key: 'X', label: 'x' });
    expect(parseAccelerator('')).toEqual({ key: '', label: '' });
  });

  it('normalizes labels: prefix stripped, trimmed, lower-cased', () => {
    expect(normalizeLabel('[A] Approve ')).toBe('approve');
    expect(normalizeLabel('Y) Yes')).toBe('yes');
    expect(normalizeLabel('N - No Way')).toBe('no way');
    expect(normalizeLabel('  Fix  ')).toBe('fix');
  });
});

describe('selectEdge (spec §3.3)', () => {
  it('step 1: a matching condition wins over a heavier unconditional edge', () => {
    const g = fromA('  a -> b [weight=100]\n  a -> c [condition="outcome=success"]');
    expect(choose(g, ok)).toBe('c');
    expect(selectEdge(g, 'a', ok, new RunContext())?.reason).toBe('condition');
    // When the condition does not hold, the unconditional edge is used.
    expect(choose(g, { status: 'partial_success' })).toBe('b');
  });

  it('step 1: among matching conditions, the highest weight, then the lexically first target', () => {
    const g = fromA(
      '  a -> d [condition="outcome=success", weight=1]\n  a -> c [condition="outcome=success", weight=5]\n  a -> b [condition="outcome=success", weight=5]',
    );
    expect(choose(g, ok)).toBe('b');
  });

  it('step 1: conditions see the context', () => {
    const g = fromA('  a -> b [condition="context.route=left"]\n  a -> c [condition="context.route=right"]\n  a -> d');
    const ctx = new RunContext({ route: 'right' });
    expect(choose(g, ok, ctx)).toBe('c');
    expect(choose(g, ok, new RunContext({ route: 'left' }))).toBe('b');
    expect(choose(g, ok, new RunContext())).toBe('d');
  });

  it('step 2: the preferred label matches an unconditional edge label after normalization', () => {
    const g = fromA('  a -> b [label="[A] Approve"]\n  a -> c [label="[R] Reject", weight=10]');
    expect(choose(g, { status: 'success', preferredLabel: 'approve' })).toBe('b');
    expect(choose(g, { status: 'success', preferredLabel: 'R) reject' })).toBe('c');
    expect(selectEdge(g, 'a', { status: 'success', preferredLabel: 'APPROVE' }, new RunContext())?.reason).toBe('preferred_label');
    // No label matches: falls through to weight.
    expect(choose(g, { status: 'success', preferredLabel: 'maybe' })).toBe('c');
  });

  it('step 2: the preferred label never selects an edge whose condition does not hold', () => {
    const g = fromA('  a -> b [label="Approve", condition="context.x=1"]\n  a -> c');
    expect(choose(g, { status: 'success', preferredLabel: 'Approve' })).toBe('c');
  });

  it('step 3: suggested ids, in the order given, when no label matches', () => {
    const g = fromA('  a -> b [weight=9]\n  a -> c\n  a -> d');
    expect(choose(g, { status: 'success', suggestedNextIds: ['nope', 'd', 'c'] })).toBe('d');
    expect(selectEdge(g, 'a', { status: 'success', suggestedNextIds: ['c'] }, new RunContext())?.reason).toBe('suggested_next_id');
    // A label match comes before suggestions.
    const labelled = fromA('  a -> b [label="go"]\n  a -> c');
    expect(choose(labelled, { status: 'success', preferredLabel: 'go', suggestedNextIds: ['c'] })).toBe('b');
  });

  it('step 4: the highest weight wins among unconditional edges', () => {
    const g = fromA('  a -> b [weight=1]\n  a -> c [weight=3]\n  a -> d [weight=-2]');
    expect(choose(g, ok)).toBe('c');
    expect(selectEdge(g, 'a', ok, new RunContext())?.reason).toBe('weight');
  });

  it('step 5: equal weights fall back to the lexically first target id, whatever the declaration order', () => {
    const g = fromA('  a -> d\n  a -> c\n  a -> b');
    expect(choose(g, ok)).toBe('b');
    const weighted = fromA('  a -> d [weight=2]\n  a -> c [weight=2]\n  a -> b [weight=1]');
    expect(choose(weighted, ok)).toBe('c');
  });

  it('returns nothing when the node has no outgoing edges or no edge qualifies', () => {
    const g = fromA('  a -> b [condition="outcome=fail"]');
    expect(selectEdge(g, 'exit', ok, new RunContext())).toBeUndefined();
    expect(choose(g, ok)).toBeUndefined();
  });

  it('with failed=true only condition matches count (spec §3.7)', () => {
    const g = fromA('  a -> b [weight=10]\n  a -> c [label="retry"]');
    const fail: Outcome = { status: 'fail', preferredLabel: 'retry', suggestedNextIds: ['c'] };
    expect(choose(g, fail, new RunContext(), true)).toBeUndefined();
    // Without the flag the same outcome would fall through.
    expect(choose(g, fail, new RunContext(), false)).toBe('c');
    const withFailEdge = fromA('  a -> b [weight=10]\n  a -> d [condition="outcome=fail"]');
    expect(choose(withFailEdge, fail, new RunContext(), true)).toBe('d');
  });
});

describe('edge selection in a run', () => {
  it('routes on a preferred label with an accelerator prefix and records the reason', async () => {
    const s = scripted({ a: { status: 'success', preferredLabel: 'approve' } });
    const { result, events } = await runInMemory(
      dot('  a [type="s"]\n  yes [type="s"]\n  no [type="s"]\n  start -> a\n  a -> yes [label="[A] Approve"]\n  a -> no [label="[R] Reject", weight=5]\n  yes -> exit\n  no -> exit'),
      { handlers: { s: s.handler } },
    );
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'yes', 'exit']);
    expect(result.context.preferred_label).toBe('approve');
    const chosen = eventsOf(events, 'edge.selected').find((e) => e.from === 'a');
    expect(chosen).toMatchObject({ to: 'yes', label: '[A] Approve', reason: 'preferred_label' });
  });

  it('a conditional (diamond) node routes on the context', async () => {
    const source = dot(
      '  set [type="s"]\n  check [shape=diamond]\n  left [type="s"]\n  right [type="s"]\n  start -> set -> check\n  check -> left [condition="context.side=left"]\n  check -> right [condition="context.side=right"]\n  left -> exit\n  right -> exit',
    );
    for (const side of ['left', 'right']) {
      const s = scripted({ set: { status: 'success', contextUpdates: { side } } });
      const { result } = await runInMemory(source, { handlers: { s: s.handler } });
      expect(result.completedNodes).toEqual(['start', 'set', 'check', side, 'exit']);
    }
  });
});
