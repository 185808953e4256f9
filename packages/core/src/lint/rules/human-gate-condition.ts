import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { parseAccelerator } from '../../graph/accelerator.js';
import { resolveHandlerType } from '../../graph/handler-types.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `human_gate_condition` (warning): an edge leaving a human gate
 * (`wait.human`, `shape=hexagon`) has a `condition`. The gate routes by the
 * answer (the chosen edge's label and target), but edge selection checks
 * conditions first and matches the answer only against unconditional edges:
 * a condition that holds takes its edge whatever was answered, and choosing
 * the edge while its condition does not hold cannot lead there.
 */
export const humanGateConditionRule: LintRule = {
  name: 'human_gate_condition',
  apply(graph) {
    const out: Diagnostic[] = [];
    const gates = new Set<string>();
    for (const node of graph.nodes.values()) if (resolveHandlerType(node) === 'wait.human') gates.add(node.id);
    if (gates.size === 0) return out;
    for (const edge of graph.edges) {
      const condition = edge.attributes.condition;
      if (!gates.has(edge.from) || condition === undefined || condition.trim() === '') continue;
      const location = edge.origins.condition?.location ?? edge.location;
      const choice = parseAccelerator(edge.attributes.label ?? '', edge.to).label || edge.to;
      out.push({
        rule: this.name,
        severity: 'warning',
        message:
          `edge ${edge.from} -> ${edge.to} has condition ${JSON.stringify(condition)}, but human gate ${edge.from} routes by the answer: ` +
          `conditions are checked first, so while it holds this edge is taken whatever is answered, ` +
          `and while it does not, choosing ${JSON.stringify(choice)} follows an unconditional edge instead (or none)`,
        fix: 'remove the condition: the gate takes the edge whose label is chosen (test context.human.gate.selected on a later edge; route a gate left unanswered with retry_target)',
        edge: { from: edge.from, to: edge.to },
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
