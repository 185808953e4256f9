import type { LintRule } from './lint-rule.js';
import { attributeNameRule } from './rules/attribute-name.js';
import { attributeValueRule } from './rules/attribute-value.js';
import { conditionSyntaxRule } from './rules/condition-syntax.js';
import { conditionValueRule } from './rules/condition-value.js';
import { conferenceSettingsRule } from './rules/conference-settings.js';
import { deadEndRule } from './rules/dead-end.js';
import { edgeTargetExistsRule } from './rules/edge-target-exists.js';
import { exitNoOutgoingRule } from './rules/exit-no-outgoing.js';
import { exitReachableRule } from './rules/exit-reachable.js';
import { fidelityValidRule } from './rules/fidelity-valid.js';
import { goalGateHasRetryRule } from './rules/goal-gate-has-retry.js';
import { humanGateChoicesRule } from './rules/human-gate-choices.js';
import { humanGateConditionRule } from './rules/human-gate-condition.js';
import { managerHasChildRule } from './rules/manager-has-child.js';
import { nodeIdLengthRule } from './rules/node-id-length.js';
import { nodeIdReservedRule } from './rules/node-id-reserved.js';
import { promptOnLlmNodesRule } from './rules/prompt-on-llm-nodes.js';
import { reachabilityRule } from './rules/reachability.js';
import { retryTargetExistsRule } from './rules/retry-target-exists.js';
import { startNoIncomingRule } from './rules/start-no-incoming.js';
import { startNodeRule } from './rules/start-node.js';
import { stylesheetSyntaxRule } from './rules/stylesheet-syntax.js';
import { terminalNodeRule } from './rules/terminal-node.js';
import { toolHasCommandRule } from './rules/tool-has-command.js';
import { typeKnownRule } from './rules/type-known.js';

/**
 * The built-in lint rules of spec §7.2, then orchestra's own:
 * `attribute_value` (error), `attribute_name`, `condition_value` and
 * `human_gate_choices` (warnings), `tool_has_command` and `node_id_reserved`
 * (errors), `human_gate_condition` (warning), `manager_has_child` and
 * `node_id_length` (errors), `dead_end` and `exit_reachable` (warnings),
 * `conference_settings` (error). In the order they run.
 */
export const BUILT_IN_RULES: readonly LintRule[] = [
  startNodeRule,
  terminalNodeRule,
  reachabilityRule,
  edgeTargetExistsRule,
  startNoIncomingRule,
  exitNoOutgoingRule,
  conditionSyntaxRule,
  stylesheetSyntaxRule,
  typeKnownRule,
  fidelityValidRule,
  retryTargetExistsRule,
  goalGateHasRetryRule,
  promptOnLlmNodesRule,
  attributeValueRule,
  attributeNameRule,
  conditionValueRule,
  humanGateChoicesRule,
  toolHasCommandRule,
  nodeIdReservedRule,
  humanGateConditionRule,
  managerHasChildRule,
  nodeIdLengthRule,
  deadEndRule,
  exitReachableRule,
  conferenceSettingsRule,
];
