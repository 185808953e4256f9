import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { parseAccelerator } from '../../graph/accelerator.js';
import { resolveHandlerType } from '../../graph/handler-types.js';
import { outgoingEdges } from '../../graph/model.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `human_gate_choices` (warning): a human gate's choices have distinct
 * accelerator keys (two `[A]` choices cannot both be picked by key), and its
 * `human.default_choice` names one of them.
 */
export const humanGateChoicesRule: LintRule = {
  name: 'human_gate_choices',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (resolveHandlerType(node) !== 'wait.human' || node.attributes['human.input'] === 'freeform') continue;
      const choices = outgoingEdges(graph, node.id).map((e) => ({ ...parseAccelerator(e.attributes.label ?? '', e.to), to: e.to, location: e.location }));
      const seen = new Map<string, string>();
      for (const c of choices) {
        const key = c.key.toUpperCase();
        const first = seen.get(key);
        if (first === undefined) {
          seen.set(key, c.to);
          continue;
        }
        out.push({
          rule: this.name,
          severity: 'warning',
          message: `human gate ${node.id}: choices to ${first} and ${c.to} share the key [${key}]; the key picks ${first}`,
          fix: `give the edge to ${c.to} its own key, e.g. label="[X] ${c.label}"`,
          edge: { from: node.id, to: c.to },
          ...(c.location ? { location: c.location } : {}),
        });
      }
      const wanted = node.attributes['human.default_choice'];
      if (wanted) {
        const w = wanted.toLowerCase();
        if (!choices.some((c) => c.key.toLowerCase() === w || c.label.toLowerCase() === w || c.to.toLowerCase() === w)) {
          const location = node.origins['human.default_choice']?.location ?? node.location;
          out.push({
            rule: this.name,
            severity: 'warning',
            message: `human gate ${node.id}: human.default_choice ${JSON.stringify(wanted)} is not one of its choices; a timeout will ask for a retry instead`,
            fix: `use a key, label or target of ${node.id}'s outgoing edges (${choices.map((c) => c.to).join(', ')})`,
            nodeId: node.id,
            ...(location ? { location } : {}),
          });
        }
      }
    }
    return out;
  },
};
