import { describe, expect, it } from 'vitest';
import type { Graph } from '../src/index.js';
import { createPipelineLoader, expandGoal, goalExpansionTransform, parsePipelineSource, withNodeAttributes, withNodes, type Transform } from '../src/loader.js';
import { attrs, byRule, pipeline } from './helpers.js';

const source = pipeline('  graph [goal="Ship v2"]\n  a [prompt="Work toward $goal; $goals and $goal_x stay"]\n  start -> a -> exit');

function parsed(src = source): Graph {
  const g = parsePipelineSource(src, 'test.dot').graph;
  if (!g) throw new Error('parse failed');
  return g;
}

describe('transforms (spec §11.11)', () => {
  it('expands $goal in prompts to the graph goal, leaving longer identifiers alone', () => {
    const g = goalExpansionTransform.apply(parsed());
    expect(attrs(g, 'a').prompt).toBe('Work toward Ship v2; $goals and $goal_x stay');
    expect(expandGoal('$goal and $goal.', 'G')).toBe('G and G.');
    expect(expandGoal('cost: $goal', '$&')).toBe('cost: $&');
  });

  it('expands $goal to the empty string when the graph has no goal', () => {
    const g = goalExpansionTransform.apply(parsed(pipeline('  a [prompt="[$goal]"]\n  start -> a -> exit')));
    expect(attrs(g, 'a').prompt).toBe('[]');
  });

  it('does not modify the input graph', () => {
    const input = parsed();
    const before = JSON.stringify({ ...input, nodes: [...input.nodes.values()] });
    const output = goalExpansionTransform.apply(input);
    expect(output).not.toBe(input);
    expect(JSON.stringify({ ...input, nodes: [...input.nodes.values()] })).toBe(before);
  });

  it('runs in the loader between parsing and validation', () => {
    const result = createPipelineLoader().load(source, 'test.dot');
    expect(attrs(result.graph!, 'a').prompt).toContain('Ship v2');
  });

  it('lets custom transforms modify the graph before validation, in registration order', () => {
    const calls: string[] = [];
    const addOrphan: Transform = {
      name: 'add-orphan',
      apply(graph) {
        calls.push('add-orphan');
        const nodes = new Map(graph.nodes);
        nodes.set('orphan', { id: 'orphan', attributes: { prompt: 'o' }, origins: {}, subgraphClasses: [] });
        return { ...graph, nodes };
      },
    };
    const tagPrompts: Transform = {
      name: 'tag-prompts',
      apply(graph) {
        calls.push('tag-prompts');
        const replaced = new Map();
        for (const node of graph.nodes.values()) {
          // Sees the built-in $goal expansion and the earlier custom transform's node.
          if (node.attributes.prompt) replaced.set(node.id, withNodeAttributes(node, { prompt: `[tagged] ${node.attributes.prompt}` }));
        }
        return withNodes(graph, replaced);
      },
    };
    const loader = createPipelineLoader({ transforms: [addOrphan] }).registerTransform(tagPrompts);
    const result = loader.load(source, 'test.dot');
    expect(calls).toEqual(['add-orphan', 'tag-prompts']);
    expect(attrs(result.graph!, 'a').prompt).toBe('[tagged] Work toward Ship v2; $goals and $goal_x stay');
    expect(attrs(result.graph!, 'orphan').prompt).toBe('[tagged] o');
    // Validation ran on the transformed graph: the injected node is unreachable.
    expect(byRule(result.diagnostics, 'reachability').map((d) => d.nodeId)).toEqual(['orphan']);
    expect(result.ok).toBe(false);
  });

  it('turns a throwing transform into an error diagnostic', () => {
    const loader = createPipelineLoader().registerTransform({
      name: 'boom',
      apply() {
        throw new Error('kaput');
      },
    });
    const result = loader.load(source, 'test.dot');
    expect(result.ok).toBe(false);
    expect(byRule(result.diagnostics, 'transform')[0]?.message).toBe('transform boom failed: kaput');
  });
});
