import { describe, expect, it } from 'vitest';
import { loadPipeline, type GraphNode } from '../../src/index.js';
import { isInteractiveNode } from '../../src/handlers.js';

function node(attrs: string): GraphNode {
  const graph = loadPipeline(`digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  n [prompt="p"${attrs}]\n  start -> n -> exit\n}\n`).graph;
  return graph?.nodes.get('n') as GraphNode;
}

describe('isInteractiveNode: agent.mode first, then the run\'s mode for phased stages', () => {
  it('follows agent.mode whatever the run says, and the run\'s phased mode only for a phased node without it', () => {
    expect(isInteractiveNode(node(', agent.mode="interactive"'))).toBe(true);
    expect(isInteractiveNode(node(', agent.mode="single", output.schema="s.json"'), 'interactive')).toBe(false);
    expect(isInteractiveNode(node(', output.schema="s.json"'), 'interactive')).toBe(true);
    expect(isInteractiveNode(node(', output.schema="s.json"'), 'direct')).toBe(false);
    expect(isInteractiveNode(node(', output.schema="s.json"'))).toBe(false);
    expect(isInteractiveNode(node(''), 'interactive')).toBe(false); // not phased: a plain stage stays single-shot
  });
});
