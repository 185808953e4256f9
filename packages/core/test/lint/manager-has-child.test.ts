import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { byRule, graphOf, load, pipeline } from '../helpers.js';

describe('manager_has_child', () => {
  it('refuses a manager loop node, by shape or by type, that names no child pipeline, at the node', () => {
    const r = load(pipeline('  boss [shape=house]\n  chief [type="stack.manager_loop", label="Chief"]\n  start -> boss -> chief -> exit'));
    expect(r.ok).toBe(false);
    expect(byRule(r.diagnostics, 'manager_has_child')).toEqual([
      {
        rule: 'manager_has_child',
        severity: 'error',
        message: 'manager node boss has no child pipeline to supervise; a run would refuse it',
        fix: 'add stack.child_dotfile="<file>.dot" to boss or to the graph (relative to this file)',
        nodeId: 'boss',
        location: { file: 'test.dot', line: 4, column: 3 },
      },
      expect.objectContaining({ nodeId: 'chief', location: { file: 'test.dot', line: 5, column: 3 } }),
    ]);
  });

  it('points at an empty stack.child_dotfile', () => {
    const d = byRule(validate(graphOf(pipeline('  boss [shape=house, stack.child_dotfile=""]\n  start -> boss -> exit'))), 'manager_has_child');
    expect(d.map((x) => [x.nodeId, x.location?.line, x.location?.column])).toEqual([['boss', 4, 22]]);
  });

  it('accepts a child named on the node or on the graph, and leaves other nodes alone', () => {
    expect(byRule(load(pipeline('  boss [shape=house, stack.child_dotfile="child.dot"]\n  start -> boss -> exit')).diagnostics, 'manager_has_child')).toEqual([]);
    const onGraph = 'digraph P {\n  graph [stack.child_dotfile="child.dot"]\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  boss [shape=house]\n  start -> boss -> exit\n}\n';
    expect(byRule(load(onGraph).diagnostics, 'manager_has_child')).toEqual([]);
    expect(byRule(load(pipeline('  work [prompt="x"]\n  start -> work -> exit')).diagnostics, 'manager_has_child')).toEqual([]);
  });
});
