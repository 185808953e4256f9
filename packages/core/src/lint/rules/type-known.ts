import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';
import { roleNodeIds } from '../role-nodes.js';

/**
 * `type_known` (error): explicit `type` values name a registered handler: a
 * built-in or one of the context's `knownHandlerTypes`. A run refuses such a
 * node before it starts, so validation does too. The start and exit nodes
 * are exempt: they run the start and exit handlers whatever their type.
 */
export const typeKnownRule: LintRule = {
  name: 'type_known',
  apply(graph, context) {
    const out: Diagnostic[] = [];
    let roles: Set<string> | undefined;
    for (const node of graph.nodes.values()) {
      const type = node.attributes.type;
      if (!type || context.knownHandlerTypes.has(type)) continue;
      roles ??= roleNodeIds(graph);
      if (roles.has(node.id)) continue;
      const location = node.origins.type?.location ?? node.location;
      out.push({
        rule: this.name,
        severity: 'error',
        message: `node ${node.id} has type ${JSON.stringify(type)}, which no handler is registered for`,
        fix: `use one of ${[...context.knownHandlerTypes].join(', ')} or register a handler for ${JSON.stringify(type)}`,
        nodeId: node.id,
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
