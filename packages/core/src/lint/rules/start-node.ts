import { findStartNodes } from '../../graph/terminals.js';
import type { LintRule } from '../lint-rule.js';

/** `start_node` (error): exactly one start node. */
export const startNodeRule: LintRule = {
  name: 'start_node',
  apply(graph) {
    const starts = findStartNodes(graph);
    if (starts.length === 1) return [];
    if (starts.length === 0) {
      return [
        {
          rule: this.name,
          severity: 'error',
          message: 'the pipeline has no start node',
          fix: 'add `start [shape=Mdiamond]` and an edge from it to the first stage',
          ...(graph.location ? { location: graph.location } : {}),
        },
      ];
    }
    return starts.slice(1).map((node) => ({
      rule: this.name,
      severity: 'error' as const,
      message: `the pipeline has ${starts.length} start nodes (${starts.map((s) => s.id).join(', ')}); exactly one is allowed`,
      fix: 'keep one node with shape=Mdiamond',
      nodeId: node.id,
      ...(node.location ? { location: node.location } : {}),
    }));
  },
};
