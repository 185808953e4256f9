import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/index.js';
import { FIXTURES_DIR, load, pipeline } from '../helpers.js';

/** The `dead_end` and `exit_reachable` findings of a pipeline, as [rule, node, line]. */
function ends(body: string): [string, string | undefined, number | undefined][] {
  return load(pipeline(body))
    .diagnostics.filter((d) => d.rule === 'dead_end' || d.rule === 'exit_reachable')
    .map((d) => [d.rule, d.nodeId, d.location?.line]);
}

describe('dead_end', () => {
  it('warns of a node without outgoing edges, other than the exit: a run reaching it ends there', () => {
    const r = load(pipeline('  work [prompt="x"]\n  cleanup [prompt="y"]\n  start -> work -> exit\n  work -> cleanup [condition="outcome=fail"]'));
    expect(r.ok).toBe(true);
    expect(r.diagnostics).toEqual([
      {
        rule: 'dead_end',
        severity: 'warning',
        message: 'node cleanup has no outgoing edges: a run that reaches it ends there, without reaching the exit node exit',
        fix: 'add an edge from cleanup to the node that should follow it (exit if the run is done)',
        nodeId: 'cleanup',
        location: { file: 'test.dot', line: 5, column: 3 },
      },
    ]);
  });

  it('leaves the nodes leading to a dead end to it (one warning for one cause)', () => {
    expect(ends('  a [prompt="x"]\n  b [prompt="x"]\n  c [prompt="x"]\n  start -> a -> exit\n  a -> b -> c')).toEqual([['dead_end', 'c', 6]]);
  });

  it('leaves a node the start cannot reach to reachability, and a graph without one start and one exit alone', () => {
    const orphan = load(pipeline('  orphan [prompt="x"]\n  start -> exit'));
    expect(orphan.diagnostics.map((d) => d.rule)).toEqual(['reachability']);
    const twoExits = load('digraph P {\n  start [shape=Mdiamond]\n  e1 [shape=Msquare]\n  e2 [shape=Msquare]\n  a [prompt="x"]\n  start -> a -> e1\n  start -> e2\n}\n');
    expect(twoExits.diagnostics.map((d) => d.rule)).toEqual(['terminal_node']);
  });

  it('does not warn of a parallel branch that ends before the fan-in node: the run goes on there', () => {
    expect(ends('  fan [shape=component]\n  a [prompt="x"]\n  b [prompt="x"]\n  b2 [prompt="x"]\n  join [shape=tripleoctagon]\n  start -> fan\n  fan -> a -> join\n  fan -> b -> b2\n  join -> exit')).toEqual([]);
  });
});

describe('exit_reachable', () => {
  it('warns of nodes from which every path loops without reaching the exit', () => {
    const r = load(pipeline('  work [prompt="x"]\n  spin [prompt="x"]\n  again [prompt="x"]\n  start -> work -> exit\n  work -> spin [condition="outcome=fail"]\n  spin -> again -> spin'));
    expect(r.ok).toBe(true);
    expect(r.diagnostics).toEqual([
      {
        rule: 'exit_reachable',
        severity: 'warning',
        message: 'the exit node exit cannot be reached from node spin: a run that gets here cannot complete',
        fix: 'add an edge from spin, or from a node after it, towards exit',
        nodeId: 'spin',
        location: { file: 'test.dot', line: 5, column: 3 },
      },
      expect.objectContaining({ rule: 'exit_reachable', nodeId: 'again', location: { file: 'test.dot', line: 6, column: 3 } }),
    ]);
  });

  it('counts conditional edges, loop_restart edges and failure routes (retry_target) as ways on', () => {
    expect(ends('  check [shape=diamond]\n  fix [prompt="x"]\n  start -> check\n  check -> exit [condition="outcome=success"]\n  check -> fix [condition="outcome!=success"]\n  fix -> check')).toEqual([]);
    expect(ends('  plan [prompt="x"]\n  review [prompt="x"]\n  start -> plan -> review\n  review -> exit [condition="outcome=success"]\n  review -> review [condition="outcome=fail"]\n  review -> plan [loop_restart=true, condition="outcome=retry"]')).toEqual([]);
    expect(ends('  poll [prompt="x", retry_target="report"]\n  report [prompt="x"]\n  start -> poll -> poll\n  report -> exit')).toEqual([]);
  });

  it('warns of a parallel node whose branches meet at no fan-in node (the run fails there), not of its branch nodes', () => {
    expect(ends('  fan [shape=component]\n  a [prompt="x"]\n  b [prompt="x"]\n  start -> fan\n  fan -> a\n  fan -> b\n  start -> exit [condition="outcome=fail"]')).toEqual([['exit_reachable', 'fan', 4]]);
  });

  it("says nothing of the repository's fixtures", () => {
    const files = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.dot'));
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const r = loadPipeline(readFileSync(`${FIXTURES_DIR}${file}`, 'utf8'), { file });
      expect(r.diagnostics.filter((d) => d.rule === 'dead_end' || d.rule === 'exit_reachable'), file).toEqual([]);
    }
  });
});
