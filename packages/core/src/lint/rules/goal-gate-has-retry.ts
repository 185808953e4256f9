import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { booleanAttr } from '../../graph/values.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `goal_gate_has_retry` (warning): a goal gate has somewhere to go back to,
 * on the node or (spec §3.4) on the graph; otherwise an unsatisfied gate
 * simply fails the run.
 */
export const goalGateHasRetryRule: LintRule = {
  name: 'goal_gate_has_retry',
  apply(graph) {
    if (graph.attributes.retry_target || graph.attributes.fallback_retry_target) return [];
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (!booleanAttr(node, 'goal_gate')) continue;
      if (node.attributes.retry_target || node.attributes.fallback_retry_target) continue;
      const location = node.origins.goal_gate?.location ?? node.location;
      out.push({
        rule: this.name,
        severity: 'warning',
        message: `goal gate ${node.id} has no retry_target: if it is unsatisfied at exit, the run fails`,
        fix: `add retry_target=<node> to ${node.id} or to the graph`,
        nodeId: node.id,
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
