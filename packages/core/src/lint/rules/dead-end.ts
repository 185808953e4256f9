import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { runPaths } from '../run-paths.js';

/**
 * `dead_end` (warning): a node a run can reach, other than the exit node,
 * has outgoing edges. A run that reaches a node without any ends there, as
 * if at the exit (goal gates are checked), without passing the exit node.
 * Nodes inside a parallel branch are exempt: the branch ends there, and the
 * run goes on at the fan-in node. Skipped unless there is exactly one start
 * and one exit node; nodes the start cannot reach are `reachability`'s.
 */
export const deadEndRule: LintRule = {
  name: 'dead_end',
  apply(graph) {
    const paths = runPaths(graph);
    if (!paths) return [];
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (node.id === paths.exit || !paths.fromStart.has(node.id) || paths.next.has(node.id) || paths.branchOf.has(node.id)) continue;
      out.push({
        rule: this.name,
        severity: 'warning',
        message: `node ${node.id} has no outgoing edges: a run that reaches it ends there, without reaching the exit node ${paths.exit}`,
        fix: `add an edge from ${node.id} to the node that should follow it (${paths.exit} if the run is done)`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
