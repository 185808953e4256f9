import type { RunContext } from '../engine/run-context.js';
import type { Graph, GraphNode } from '../graph/model.js';
import { expandContextReferences } from '../text/context-references.js';
import { expandGoal } from '../transforms/goal-expansion-transform.js';

/**
 * The prompt of an LLM node (spec §4.5): `prompt`, else `label`, else the node
 * id, with `$goal` expanded to the graph goal. Shared by every LLM handler.
 */
export function composePrompt(node: GraphNode, graph: Graph): string {
  const text = node.attributes.prompt?.trim() ? node.attributes.prompt : node.attributes.label?.trim() ? node.attributes.label : node.id;
  return expandGoal(text, graph.attributes.goal ?? '');
}

/**
 * {@link composePrompt}, then `{{path}}` references expanded from the run's
 * context (see `expandContextReferences`): what an LLM stage is sent.
 */
export function composeStagePrompt(node: GraphNode, graph: Graph, context: RunContext): string {
  const text = composePrompt(node, graph);
  return text.includes('{{') ? expandContextReferences(text, context.snapshot()).text : text;
}
