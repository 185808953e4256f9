import type { Condition } from '../conditions/condition.js';
import { evaluateCondition } from '../conditions/evaluate-condition.js';
import { parseCondition } from '../conditions/parse-condition.js';
import type { Graph, GraphEdge } from '../graph/model.js';
import { integerAttr } from '../graph/values.js';
import { normalizeLabel } from '../graph/accelerator.js';
import type { EdgeChoiceReason } from './events.js';
import type { Outcome } from './outcome.js';
import type { RunContext } from './run-context.js';

/** The edge chosen after a node, and which step of spec §3.3 chose it. */
export interface EdgeChoice {
  edge: GraphEdge;
  reason: EdgeChoiceReason;
}

const parsedConditions = new WeakMap<GraphEdge, Condition | null>();
const outgoingIndex = new WeakMap<Graph, Map<string, GraphEdge[]>>();

/** Outgoing edges of a node in declaration order, from an index built once per graph. */
function outgoing(graph: Graph, nodeId: string): readonly GraphEdge[] {
  let index = outgoingIndex.get(graph);
  if (!index) {
    index = new Map();
    for (const e of graph.edges) {
      const list = index.get(e.from);
      if (list) list.push(e);
      else index.set(e.from, [e]);
    }
    outgoingIndex.set(graph, index);
  }
  return index.get(nodeId) ?? [];
}

/** The edge's parsed condition; undefined when it has none, null when it does not parse. */
function conditionOf(edge: GraphEdge): Condition | null | undefined {
  const source = edge.attributes.condition;
  if (source === undefined || source.trim() === '') return undefined;
  let parsed = parsedConditions.get(edge);
  if (parsed === undefined) {
    const result = parseCondition(source);
    parsed = result.ok ? result.condition : null;
    parsedConditions.set(edge, parsed);
  }
  return parsed;
}

/** Whether an edge's condition holds for an outcome and context (no condition: false here). */
export function conditionHolds(edge: GraphEdge, outcome: Outcome, context: RunContext): boolean {
  const condition = conditionOf(edge);
  if (!condition) return false;
  return evaluateCondition(condition, {
    outcome: outcome.status,
    preferredLabel: outcome.preferredLabel ?? '',
    get: (key) => context.get(key),
  });
}

function best(edges: readonly GraphEdge[]): GraphEdge {
  let top = edges[0] as GraphEdge;
  for (const e of edges.slice(1)) {
    const dw = integerAttr(e, 'weight', 0) - integerAttr(top, 'weight', 0);
    if (dw > 0 || (dw === 0 && e.to < top.to)) top = e;
  }
  return top;
}

/**
 * Chooses the next edge from `nodeId` (spec §3.3): edges whose condition
 * holds (best by weight, then target id); else the first unconditional edge
 * whose label matches the preferred label; else the first unconditional edge
 * to a suggested id; else the best unconditional edge by weight, then target
 * id. With `failed` set (a FAIL outcome, spec §3.7) only condition matches
 * count: a failure never falls through to an unconditional edge.
 */
export function selectEdge(graph: Graph, nodeId: string, outcome: Outcome, context: RunContext, failed = false): EdgeChoice | undefined {
  const edges = outgoing(graph, nodeId);
  if (edges.length === 0) return undefined;
  const matched = edges.filter((e) => conditionHolds(e, outcome, context));
  if (matched.length > 0) return { edge: best(matched), reason: 'condition' };
  if (failed) return undefined;
  const unconditional = edges.filter((e) => conditionOf(e) === undefined);
  if (outcome.preferredLabel) {
    const wanted = normalizeLabel(outcome.preferredLabel);
    const hit = unconditional.find((e) => normalizeLabel(e.attributes.label ?? '') === wanted);
    if (hit) return { edge: hit, reason: 'preferred_label' };
  }
  for (const id of outcome.suggestedNextIds ?? []) {
    const hit = unconditional.find((e) => e.to === id);
    if (hit) return { edge: hit, reason: 'suggested_next_id' };
  }
  if (unconditional.length > 0) return { edge: best(unconditional), reason: 'weight' };
  return undefined;
}
