import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { resolveHandlerType } from '../../graph/handler-types.js';
import { WORKSPACE_TOOL_NAMES } from '../../graph/workspace-tools.js';
import { CONFERENCE_TYPE, conferenceSettingsProblem } from '../../graph/conference-settings.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `conference_settings` (error): a conference node names at least one role,
 * a quorum between 1 and its number of roles, chief turns, and only
 * workspace tools in `conference.tools` (a tool it requires among them).
 * Whether each role is defined is checked against `orchestra.yaml` where one
 * is found (`orchestra validate`, and before a run starts).
 */
export const conferenceSettingsRule: LintRule = {
  name: 'conference_settings',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (resolveHandlerType(node) !== CONFERENCE_TYPE) continue;
      const problem = conferenceSettingsProblem(node, WORKSPACE_TOOL_NAMES);
      if (!problem) continue;
      out.push({
        rule: this.name,
        severity: 'error',
        message: problem,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
