import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `edge_target_exists` (error): both ends of every edge are nodes of the
 * graph. DOT creates nodes for edge endpoints, so this fires for graphs built
 * or rewritten in code (custom transforms), not for parsed files.
 */
export const edgeTargetExistsRule: LintRule = {
  name: 'edge_target_exists',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const e of graph.edges) {
      for (const end of [e.from, e.to]) {
        if (graph.nodes.has(end)) continue;
        out.push({
          rule: this.name,
          severity: 'error',
          message: `edge ${e.from} -> ${e.to} refers to ${end}, which is not a node`,
          fix: `declare ${end} or correct the edge`,
          edge: { from: e.from, to: e.to },
          ...(e.location ? { location: e.location } : {}),
        });
      }
    }
    return out;
  },
};
