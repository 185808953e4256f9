import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { findAttributeSpec, type AttributeSpec } from '../../graph/attribute-specs.js';
import { isValidValue } from '../../graph/values.js';
import { forEachWrittenAttribute } from '../each-attribute.js';
import type { LintRule } from '../lint-rule.js';

const EXAMPLES: Record<string, string> = {
  integer: 'a whole number such as 3',
  float: 'a number such as 0.5',
  boolean: 'true or false',
  duration: 'a number with a unit: 250ms, 900s, 15m, 2h or 1d',
};

/** Closed value sets checked elsewhere, with the spec's own severity (`fidelity_valid`). */
const CHECKED_ELSEWHERE = new Set(['fidelity', 'default_fidelity']);

/** Why `value` does not fit `spec`, with a fix; undefined when it fits. */
function problem(spec: AttributeSpec, value: string): { what: string; fix: string } | undefined {
  if (spec.type !== 'string' && !isValidValue(value, spec.type)) {
    return { what: `is not a valid ${spec.type}`, fix: `write ${EXAMPLES[spec.type]}` };
  }
  if (spec.values && !CHECKED_ELSEWHERE.has(spec.name) && !spec.values.includes(value)) {
    return { what: `is not one of ${spec.values.join(', ')}`, fix: `write one of ${spec.values.join(', ')}` };
  }
  return undefined;
}

/**
 * `attribute_value` (error): attributes the engine reads hold a value of
 * their type (`max_retries=three`, `timeout=15x`, `goal_gate=yes`) or of their
 * closed set (`reasoning_effort=extreme`). A bad value written once in a
 * `node [...]` / `edge [...]` block or a chained edge is reported once.
 */
export const attributeValueRule: LintRule = {
  name: 'attribute_value',
  apply(graph) {
    const out: Diagnostic[] = [];
    forEachWrittenAttribute(graph, ({ scope, key, value, owner, location, ref }) => {
      const spec = findAttributeSpec(scope, key);
      const found = spec && problem(spec, value);
      if (!found) return;
      out.push({
        rule: 'attribute_value',
        severity: 'error',
        message: `${owner}: ${key}=${JSON.stringify(value)} ${found.what}`,
        fix: found.fix,
        ...ref,
        ...(location ? { location } : {}),
      });
    });
    return out;
  },
};
