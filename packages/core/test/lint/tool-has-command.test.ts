import { describe, expect, it } from 'vitest';
import { validate } from '../../src/index.js';
import { byRule, graphOf, load, pipeline } from '../helpers.js';

describe('tool_has_command', () => {
  it('refuses a tool node without tool_command, by shape or by type, at the node', () => {
    const r = load(pipeline('  lint [shape=parallelogram, label="Lint"]\n  pack [type="tool"]\n  start -> lint -> pack -> exit'));
    expect(r.ok).toBe(false);
    expect(byRule(r.diagnostics, 'tool_has_command')).toEqual([
      {
        rule: 'tool_has_command',
        severity: 'error',
        message: 'tool node lint has no tool_command; it would fail with "No tool_command specified"',
        fix: 'add tool_command="..." to lint (a shell command), or give it another shape if it is not a tool stage',
        nodeId: 'lint',
        location: { file: 'test.dot', line: 4, column: 3 },
      },
      expect.objectContaining({ severity: 'error', nodeId: 'pack', location: { file: 'test.dot', line: 5, column: 3 } }),
    ]);
  });

  it('refuses an empty or blank tool_command, pointing at it', () => {
    const d = byRule(validate(graphOf(pipeline('  a [shape=parallelogram, tool_command=""]\n  b [shape=parallelogram, tool_command="  "]\n  start -> a -> b -> exit'))), 'tool_has_command');
    expect(d.map((x) => [x.nodeId, x.message, x.location?.line, x.location?.column])).toEqual([
      ['a', 'tool node a has an empty tool_command; it would fail with "No tool_command specified"', 4, 27],
      ['b', 'tool node b has an empty tool_command; it would fail with "No tool_command specified"', 5, 27],
    ]);
  });

  it('accepts a command from the node or from a node [...] default, and leaves other nodes and the start and exit alone', () => {
    const ok = pipeline('  a [shape=parallelogram, tool_command="make"]\n  node [tool_command="true"]\n  b [type=tool]\n  c [prompt="x"]\n  start -> a -> b -> c -> exit');
    expect(byRule(validate(graphOf(ok)), 'tool_has_command')).toEqual([]);
    // No Mdiamond: the node named start is the start node, and runs the start handler whatever its shape.
    expect(byRule(validate(graphOf('digraph G { start [shape=parallelogram]; exit [shape=Msquare]; start -> exit }')), 'tool_has_command')).toEqual([]);
  });
});
