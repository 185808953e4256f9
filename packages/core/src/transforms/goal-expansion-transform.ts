import { withNodeAttributes, withNodes, type Graph, type GraphNode } from '../graph/model.js';
import type { Transform } from './transform.js';

/** `$goal` not followed by another identifier character (`$goals` and `$goal_x` are left alone). */
const GOAL_VARIABLE = /\$goal(?![A-Za-z0-9_])/g;

/** Replaces `$goal` in a text with the goal. */
export function expandGoal(text: string, goal: string): string {
  return text.replace(GOAL_VARIABLE, () => goal);
}

/** Expands `$goal` in every node's `prompt` to the graph's `goal` (spec §9.2). */
export const goalExpansionTransform: Transform = {
  name: 'goal_expansion',
  apply(graph: Graph): Graph {
    const goal = graph.attributes.goal ?? '';
    const replaced = new Map<string, GraphNode>();
    for (const node of graph.nodes.values()) {
      const prompt = node.attributes.prompt;
      if (prompt === undefined || !prompt.includes('$goal')) continue;
      const expanded = expandGoal(prompt, goal);
      if (expanded !== prompt) replaced.set(node.id, withNodeAttributes(node, { prompt: expanded }, node.origins.prompt));
    }
    return withNodes(graph, replaced);
  },
};
