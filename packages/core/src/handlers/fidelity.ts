import { FIDELITY_MODES } from '../graph/attribute-specs.js';
import type { Graph, GraphNode } from '../graph/model.js';
import type { Arrival } from '../engine/handler.js';

/** A context fidelity mode (spec §5.4). */
export type FidelityMode = (typeof FIDELITY_MODES)[number];

/** How much of the run an LLM stage gets, and (for `full`) which session it continues. */
export interface Fidelity {
  mode: FidelityMode;
  /**
   * With `full`: the thread key; nodes with the same key continue the same
   * LLM session. Undefined for the other modes (they always start fresh).
   */
  threadKey?: string;
}

/** The mode when nothing sets one (spec §5.4). */
export const DEFAULT_FIDELITY: FidelityMode = 'compact';

function mode(value: string | undefined): FidelityMode | undefined {
  return value && (FIDELITY_MODES as readonly string[]).includes(value) ? (value as FidelityMode) : undefined;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/**
 * A node's fidelity (spec §5.4): the incoming edge's `fidelity`, else the
 * node's, else the graph's `default_fidelity`, else `compact` (an unknown
 * mode, which lint warns about, counts as unset). Under `full` the thread
 * key is the node's `thread_id`, else the edge's, else the graph's
 * `thread_id` (the graph-level default thread), else the first class derived
 * from an enclosing subgraph, else the previous node's id (the node's own id
 * for the first node).
 */
export function resolveFidelity(graph: Graph, node: GraphNode, arrival: Arrival): Fidelity {
  const edge = arrival.edge;
  const resolved = mode(edge?.attributes.fidelity) ?? mode(node.attributes.fidelity) ?? mode(graph.attributes.default_fidelity) ?? DEFAULT_FIDELITY;
  if (resolved !== 'full') return { mode: resolved };
  const threadKey =
    nonEmpty(node.attributes.thread_id) ??
    nonEmpty(edge?.attributes.thread_id) ??
    nonEmpty(graph.attributes.thread_id) ??
    node.subgraphClasses[0] ??
    arrival.from ??
    node.id;
  return { mode: 'full', threadKey };
}
