import { findExitNodes } from '../../graph/terminals.js';
import type { LintRule } from '../lint-rule.js';

/** `terminal_node` (error): exactly one exit node. */
export const terminalNodeRule: LintRule = {
  name: 'terminal_node',
  apply(graph) {
    const exits = findExitNodes(graph);
    if (exits.length === 1) return [];
    if (exits.length === 0) {
      return [
        {
          rule: this.name,
          severity: 'error',
          message: 'the pipeline has no exit node',
          fix: 'add `exit [shape=Msquare]` and an edge to it from the last stage',
          ...(graph.location ? { location: graph.location } : {}),
        },
      ];
    }
    return exits.slice(1).map((node) => ({
      rule: this.name,
      severity: 'error' as const,
      message: `the pipeline has ${exits.length} exit nodes (${exits.map((s) => s.id).join(', ')}); exactly one is allowed`,
      fix: 'keep one node with shape=Msquare and route the others to it',
      nodeId: node.id,
      ...(node.location ? { location: node.location } : {}),
    }));
  },
};
