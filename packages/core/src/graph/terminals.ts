import type { Graph, GraphNode } from './model.js';

/**
 * Start node candidates (spec §7.2): nodes with `shape=Mdiamond`; when there
 * are none, nodes whose id is `start` or `Start`. A valid pipeline has exactly one.
 */
export function findStartNodes(graph: Graph): GraphNode[] {
  return candidates(graph, 'Mdiamond', ['start', 'Start']);
}

/**
 * Exit node candidates (spec §7.2): nodes with `shape=Msquare`; when there
 * are none, nodes whose id is `exit` or `end`. A valid pipeline has exactly one.
 */
export function findExitNodes(graph: Graph): GraphNode[] {
  return candidates(graph, 'Msquare', ['exit', 'end', 'Exit', 'End']);
}

function candidates(graph: Graph, shape: string, ids: readonly string[]): GraphNode[] {
  const byShape: GraphNode[] = [];
  for (const node of graph.nodes.values()) if (node.attributes.shape === shape) byShape.push(node);
  if (byShape.length > 0) return byShape;
  const byId: GraphNode[] = [];
  for (const node of graph.nodes.values()) if (ids.includes(node.id)) byId.push(node);
  return byId;
}
