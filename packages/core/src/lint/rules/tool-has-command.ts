import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { resolveHandlerType } from '../../graph/handler-types.js';
import type { LintRule } from '../lint-rule.js';
import { roleNodeIds } from '../role-nodes.js';

/**
 * `tool_has_command` (error): a tool node (`shape=parallelogram` or
 * `type="tool"`) has a non-blank `tool_command`. Without one the tool
 * handler can only fail ("No tool_command specified"). Points at an empty
 * `tool_command`, else at the node.
 */
export const toolHasCommandRule: LintRule = {
  name: 'tool_has_command',
  apply(graph) {
    const out: Diagnostic[] = [];
    let roles: Set<string> | undefined;
    for (const node of graph.nodes.values()) {
      if (resolveHandlerType(node) !== 'tool' || node.attributes.tool_command?.trim()) continue;
      roles ??= roleNodeIds(graph);
      if (roles.has(node.id)) continue;
      const empty = node.attributes.tool_command !== undefined;
      const location = (empty ? node.origins.tool_command?.location : undefined) ?? node.location;
      out.push({
        rule: this.name,
        severity: 'error',
        message: empty
          ? `tool node ${node.id} has an empty tool_command; it would fail with "No tool_command specified"`
          : `tool node ${node.id} has no tool_command; it would fail with "No tool_command specified"`,
        fix: `add tool_command="..." to ${node.id} (a shell command), or give it another shape if it is not a tool stage`,
        nodeId: node.id,
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
