import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { childDotfile } from '../../graph/child-dotfile.js';
import { SHAPE_HANDLER_TYPES, resolveHandlerType } from '../../graph/handler-types.js';
import type { LintRule } from '../lint-rule.js';
import { roleNodeIds } from '../role-nodes.js';

const MANAGER_LOOP = SHAPE_HANDLER_TYPES.house;

/**
 * `manager_has_child` (error): a manager loop node (`shape=house` or
 * `type="stack.manager_loop"`) names the child pipeline it supervises, with
 * `stack.child_dotfile` on the node or on the graph. A run refuses one that
 * does not before it starts (as the manager loop handler's `cannotRun` does).
 * Points at an empty `stack.child_dotfile`, else at the node. The start and
 * exit nodes are exempt.
 */
export const managerHasChildRule: LintRule = {
  name: 'manager_has_child',
  apply(graph) {
    const out: Diagnostic[] = [];
    let roles: Set<string> | undefined;
    for (const node of graph.nodes.values()) {
      if (resolveHandlerType(node) !== MANAGER_LOOP) continue;
      // As the handler reads it.
      if (childDotfile(node, graph)) continue;
      roles ??= roleNodeIds(graph);
      if (roles.has(node.id)) continue;
      const location = node.origins['stack.child_dotfile']?.location ?? node.location;
      out.push({
        rule: this.name,
        severity: 'error',
        message: `manager node ${node.id} has no child pipeline to supervise; a run would refuse it`,
        fix: `add stack.child_dotfile="<file>.dot" to ${node.id} or to the graph (relative to this file)`,
        nodeId: node.id,
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
