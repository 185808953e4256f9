import { parseCondition } from '../../conditions/parse-condition.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { locateInValue } from '../../graph/locate-in-value.js';
import { closest } from '../edit-distance.js';
import type { LintRule } from '../lint-rule.js';

/** The values `outcome` can take in a condition (lower-case, as in status files). */
export const OUTCOME_VALUES = ['success', 'partial_success', 'retry', 'fail', 'skipped'] as const;

/**
 * `condition_value` (warning): a clause compares `outcome` with a value no
 * outcome ever has (`outcome=sucess`, `outcome=SUCCESS`), so the edge would
 * never (or always) be taken.
 */
export const conditionValueRule: LintRule = {
  name: 'condition_value',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const e of graph.edges) {
      const condition = e.attributes.condition;
      if (!condition) continue;
      const parsed = parseCondition(condition);
      if (!parsed.ok) continue;
      for (const clause of parsed.condition.clauses) {
        if (clause.key !== 'outcome' || clause.op === 'truthy') continue;
        if ((OUTCOME_VALUES as readonly string[]).includes(clause.value)) continue;
        const suggestion = closest(clause.value.toLowerCase(), OUTCOME_VALUES, 3);
        const location = locateInValue(e.origins.condition, condition, clause.index) ?? e.location;
        out.push({
          rule: this.name,
          severity: 'warning',
          message: `edge ${e.from} -> ${e.to}: outcome is never ${JSON.stringify(clause.value)}, so the clause "outcome${clause.op}${clause.value}" ${clause.op === '=' ? 'never holds' : 'always holds'}`,
          fix: suggestion ? `did you mean outcome${clause.op}${suggestion}?` : `outcome is one of ${OUTCOME_VALUES.join(', ')}`,
          edge: { from: e.from, to: e.to },
          ...(location ? { location } : {}),
        });
      }
    }
    return out;
  },
};
