import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';

const KEYS = ['retry_target', 'fallback_retry_target'] as const;

/** `retry_target_exists` (warning): retry targets on nodes and the graph name existing nodes. */
export const retryTargetExistsRule: LintRule = {
  name: 'retry_target_exists',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const key of KEYS) {
      const target = graph.attributes[key];
      if (target && !graph.nodes.has(target)) {
        const location = graph.origins[key]?.location ?? graph.location;
        out.push({
          rule: this.name,
          severity: 'warning',
          message: `graph ${key} ${JSON.stringify(target)} is not a node`,
          fix: 'name an existing node',
          ...(location ? { location } : {}),
        });
      }
    }
    for (const node of graph.nodes.values()) {
      for (const key of KEYS) {
        const target = node.attributes[key];
        if (!target || graph.nodes.has(target)) continue;
        const location = node.origins[key]?.location ?? node.location;
        out.push({
          rule: this.name,
          severity: 'warning',
          message: `node ${node.id} has ${key} ${JSON.stringify(target)}, which is not a node`,
          fix: 'name an existing node',
          nodeId: node.id,
          ...(location ? { location } : {}),
        });
      }
    }
    return out;
  },
};
