import { describe, expect, it } from 'vitest';
import { byRule, load, pipeline } from '../helpers.js';

describe('node_redeclared', () => {
  it('warns when a later statement of a node changes a value an earlier one set, at the later one, naming the earlier line', () => {
    const r = load(pipeline('  a [prompt="x", timeout=5m]\n  start -> a -> exit\n  a [prompt="y", timeout=5m, label="A"]'));
    expect(r.ok).toBe(true);
    expect(byRule(r.diagnostics, 'node_redeclared')).toEqual([
      {
        rule: 'node_redeclared',
        severity: 'warning',
        message: 'node a: prompt="y" replaces prompt="x" set on line 4; the later value wins',
        fix: 'set prompt once: remove it from one of the declarations of a (line 4 or this one)',
        nodeId: 'a',
        location: { file: 'test.dot', line: 6, column: 6 },
      },
    ]);
    expect(r.graph?.nodes.get('a')?.attributes.prompt).toBe('y');
  });

  it('covers the same key twice in one statement and in a subgraph, and cuts long values', () => {
    const long = 'p'.repeat(60);
    const r = load(pipeline(`  a [shape=box, shape=hexagon]\n  subgraph cluster_x { b [prompt="${long}"] }\n  b [prompt="short"]\n  start -> a\n  a -> b -> exit`));
    expect(byRule(r.diagnostics, 'node_redeclared').map((d) => [d.nodeId, d.message, d.location?.line])).toEqual([
      ['a', 'node a: shape="hexagon" replaces shape="box" set on line 4; the later value wins', 4],
      ['b', `node b: prompt="short" replaces prompt="${'p'.repeat(39)}…" set on line 5; the later value wins`, 6],
    ]);
  });

  it('says nothing when a node only adds attributes, repeats a value, or overrides a node [...] default', () => {
    const r = load(pipeline('  node [timeout=1m]\n  a [prompt="x"]\n  a [label="A", prompt="x"]\n  a [timeout=2m]\n  b\n  b [prompt="y"]\n  start -> a -> b -> exit'));
    expect(byRule(r.diagnostics, 'node_redeclared')).toEqual([]);
  });
});
