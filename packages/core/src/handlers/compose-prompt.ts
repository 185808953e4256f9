import type { Graph, GraphNode } from '../graph/model.js';
import { expandGoal } from '../transforms/goal-expansion-transform.js';

/**
 * The prompt of an LLM node (spec §4.5): `prompt`, else `label`, else the node
 * id, with `$goal` expanded to the graph goal. Shared by every LLM handler.
 */
export function composePrompt(node: GraphNode, graph: Graph): string {
  const text = node.attributes.prompt?.trim() ? node.attributes.prompt : node.attributes.label?.trim() ? node.attributes.label : node.id;
  return expandGoal(text, graph.attributes.goal ?? '');
}
