import type { Graph, GraphNode } from './model.js';

/** The child pipeline a manager loop node supervises: the node's `stack.child_dotfile`, else the graph's (an empty one names nothing). */
export function childDotfile(node: GraphNode, graph: Graph): string | undefined {
  return node.attributes['stack.child_dotfile'] || graph.attributes['stack.child_dotfile'] || undefined;
}
