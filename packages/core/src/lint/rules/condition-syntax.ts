import { parseCondition } from '../../conditions/parse-condition.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { locateInValue } from '../../graph/locate-in-value.js';
import type { LintRule } from '../lint-rule.js';

/** `condition_syntax` (error): every edge condition parses (spec §10.2). */
export const conditionSyntaxRule: LintRule = {
  name: 'condition_syntax',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const e of graph.edges) {
      const condition = e.attributes.condition;
      if (condition === undefined) continue;
      const parsed = parseCondition(condition);
      if (parsed.ok) continue;
      const location = locateInValue(e.origins.condition, condition, parsed.error.index) ?? e.location;
      out.push({
        rule: this.name,
        severity: 'error',
        message: `condition ${JSON.stringify(condition)} on ${e.from} -> ${e.to}: ${parsed.error.message}`,
        ...(parsed.error.fix ? { fix: parsed.error.fix } : {}),
        edge: { from: e.from, to: e.to },
        ...(location ? { location } : {}),
      });
    }
    return out;
  },
};
