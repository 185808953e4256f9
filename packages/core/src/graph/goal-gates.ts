import type { Graph } from './model.js';
import { booleanAttr } from './values.js';

/** The goal gates of a graph (nodes with `goal_gate=true`, spec §3.4), in graph order. */
export function goalGatesOf(graph: Graph): string[] {
  return [...graph.nodes.values()].filter((n) => booleanAttr(n, 'goal_gate')).map((n) => n.id);
}
