import { describe, expect, it } from 'vitest';
import { validate, type Graph } from '../../src/index.js';
import { byRule, graphOf, load, pipeline } from '../helpers.js';

describe('node_id_length', () => {
  it('refuses a node id over 255 bytes, which cannot name its stage directory, at the node', () => {
    const long = `n${'x'.repeat(299)}`;
    const r = load(pipeline(`  ${long} [shape=parallelogram, tool_command="true"]\n  start -> ${long} -> exit`));
    expect(r.ok).toBe(false);
    expect(byRule(r.diagnostics, 'node_id_length')).toEqual([
      {
        rule: 'node_id_length',
        severity: 'error',
        message: `node id n${'x'.repeat(39)}... is 300 bytes long: its stage directory would be named by it, and file systems refuse names over 255 bytes`,
        fix: 'shorten the id (keep the long name for people in label="...")',
        nodeId: long,
        location: { file: 'test.dot', line: 4, column: 3 },
      },
    ]);
  });

  it('accepts 255 bytes, and counts bytes of UTF-8, not characters', () => {
    const edge = `n${'x'.repeat(254)}`;
    expect(byRule(load(pipeline(`  ${edge} [prompt="x"]\n  start -> ${edge} -> exit`)).diagnostics, 'node_id_length')).toEqual([]);
    // A graph built in code can hold any id (a run refuses ids outside [A-Za-z_][A-Za-z0-9_]*): 86 × 3 bytes.
    const graph = graphOf(pipeline('  wide [prompt="x"]\n  start -> wide -> exit'));
    const wideId = '€'.repeat(86);
    const nodes = new Map([...graph.nodes].map(([id, node]) => (id === 'wide' ? [wideId, { ...node, id: wideId }] : [id, node])));
    const edges = graph.edges.map((e) => ({ ...e, from: e.from === 'wide' ? wideId : e.from, to: e.to === 'wide' ? wideId : e.to }));
    const wide: Graph = { ...graph, nodes, edges };
    expect(byRule(validate(wide), 'node_id_length').map((d) => d.message)).toEqual([
      `node id ${'€'.repeat(40)}... is 258 bytes long: its stage directory would be named by it, and file systems refuse names over 255 bytes`,
    ]);
  });
});
