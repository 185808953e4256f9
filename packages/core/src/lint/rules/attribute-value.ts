import type { Diagnostic, SourceLocation } from '../../diagnostics/diagnostic.js';
import { findAttributeSpec, type AttributeScope } from '../../graph/attribute-specs.js';
import type { Attributes, AttributeOrigin } from '../../graph/model.js';
import { isValidValue } from '../../graph/values.js';
import type { LintRule } from '../lint-rule.js';

const EXAMPLES: Record<string, string> = {
  integer: 'a whole number such as 3',
  float: 'a number such as 0.5',
  boolean: 'true or false',
  duration: 'a number with a unit: 250ms, 900s, 15m, 2h or 1d',
};

/**
 * `attribute_value` (error): typed attributes the engine reads hold a value of
 * their type (`max_retries=three`, `timeout=15x`, `goal_gate=yes` are refused).
 */
export const attributeValueRule: LintRule = {
  name: 'attribute_value',
  apply(graph) {
    const out: Diagnostic[] = [];
    const check = (
      scope: AttributeScope,
      attributes: Attributes,
      origins: Readonly<Record<string, AttributeOrigin>>,
      owner: string,
      fallback: SourceLocation | undefined,
      ref: Partial<Diagnostic>,
    ) => {
      for (const [key, value] of Object.entries(attributes)) {
        const spec = findAttributeSpec(scope, key);
        if (!spec || spec.type === 'string' || isValidValue(value, spec.type)) continue;
        const location = origins[key]?.location ?? fallback;
        out.push({
          rule: 'attribute_value',
          severity: 'error',
          message: `${owner}: ${key}=${JSON.stringify(value)} is not a valid ${spec.type}`,
          fix: `write ${EXAMPLES[spec.type]}`,
          ...ref,
          ...(location ? { location } : {}),
        });
      }
    };
    check('graph', graph.attributes, graph.origins, 'graph', graph.location, {});
    for (const node of graph.nodes.values()) {
      check('node', node.attributes, node.origins, `node ${node.id}`, node.location, { nodeId: node.id });
    }
    for (const e of graph.edges) {
      check('edge', e.attributes, e.origins, `edge ${e.from} -> ${e.to}`, e.location, { edge: { from: e.from, to: e.to } });
    }
    return out;
  },
};
