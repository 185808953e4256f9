import { resolveHandlerType } from './handler-types.js';
import type { Graph, GraphNode } from './model.js';

/**
 * Start node candidates (spec §7.2): nodes whose handler is `start`
 * (`shape=Mdiamond` or `type=start`); when there are none, nodes whose id is
 * `start` or `Start`. A valid pipeline has exactly one.
 */
export function findStartNodes(graph: Graph): GraphNode[] {
  return candidates(graph, 'start', ['start', 'Start']);
}

/**
 * Exit node candidates (spec §7.2): nodes whose handler is `exit`
 * (`shape=Msquare` or `type=exit`); when there are none, nodes whose id is
 * `exit` or `end` (or `Exit`, `End`, matching the start rule's `Start`).
 * A valid pipeline has exactly one.
 */
export function findExitNodes(graph: Graph): GraphNode[] {
  return candidates(graph, 'exit', ['exit', 'end', 'Exit', 'End']);
}

function candidates(graph: Graph, handlerType: string, ids: readonly string[]): GraphNode[] {
  const byHandler: GraphNode[] = [];
  for (const node of graph.nodes.values()) if (resolveHandlerType(node) === handlerType) byHandler.push(node);
  if (byHandler.length > 0) return byHandler;
  const byId: GraphNode[] = [];
  for (const node of graph.nodes.values()) if (ids.includes(node.id)) byId.push(node);
  return byId;
}
