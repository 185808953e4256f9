import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';

/** `type_known` (warning): explicit `type` values name a registered handler. */
export const typeKnownRule: LintRule = {
  name: 'type_known',
  apply(graph, context) {
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      const type = node.attributes.type;
      if (!type || context.knownHandlerTypes.has(type)) continue;
      const location = node.origins.type?.location ?? node.location;
      out.push({
        rule: this.name,
        severity: 'warning',
        message: `node ${node.id} has type ${JSON.stringify(type)}, which no handler is registered for`,
        fix: `use one of ${[...context.knownHandlerTypes].join(', ')} or register a handler for ${JSON.stringify(type)}`,
        nodeId: node.id,
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
