import { nodeShape } from '../graph/handler-types.js';
import { nodeClasses, withNodeAttributes, withNodes, type AttributeOrigin, type Graph, type GraphNode } from '../graph/model.js';
import { specificity, type Selector, type Stylesheet } from './stylesheet.js';

function matches(selector: Selector, node: GraphNode, classes: readonly string[]): boolean {
  switch (selector.kind) {
    case 'universal':
      return true;
    case 'shape':
      return nodeShape(node) === selector.shape;
    case 'class':
      return classes.includes(selector.className);
    case 'id':
      return node.id === selector.id;
  }
}

/**
 * Applies a parsed stylesheet to every node (spec §8.5): among matching rules
 * the higher specificity wins, and a later rule wins among equals. A property
 * written explicitly on the node is never replaced; values inherited from a
 * `node [...]` default block are, because a stylesheet rule is more specific
 * than a blanket default. Returns a new graph; the input is not modified.
 */
export function applyStylesheet(graph: Graph, stylesheet: Stylesheet): Graph {
  if (stylesheet.rules.length === 0) return graph;
  const ordered = stylesheet.rules
    .map((rule, order) => ({ rule, order, weight: specificity(rule.selector) }))
    .sort((a, b) => a.weight - b.weight || a.order - b.order);
  const origin: AttributeOrigin = { source: 'transform' };
  const location = graph.origins.model_stylesheet?.location;
  if (location) origin.location = location;
  const replaced = new Map<string, GraphNode>();
  for (const node of graph.nodes.values()) {
    const classes = nodeClasses(node);
    const updates: Record<string, string> = {};
    for (const { rule } of ordered) {
      if (!matches(rule.selector, node, classes)) continue;
      for (const { property, value } of rule.declarations) {
        if (node.origins[property]?.source === 'explicit') continue;
        updates[property] = value;
      }
    }
    if (Object.keys(updates).length > 0) replaced.set(node.id, withNodeAttributes(node, updates, origin));
  }
  return withNodes(graph, replaced);
}
