import type { Graph } from '../graph/model.js';
import { findExitNodes, findStartNodes } from '../graph/terminals.js';

/**
 * Ids of the start and exit candidates. A run gives them the `start` and
 * `exit` handlers whatever their `type` or shape (engine/plan.ts), so rules
 * about a node's own handler leave them alone: `start [type="custom"]` is the
 * start node when no node has `shape=Mdiamond`.
 */
export function roleNodeIds(graph: Graph): Set<string> {
  return new Set([...findStartNodes(graph), ...findExitNodes(graph)].map((n) => n.id));
}
