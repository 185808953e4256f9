import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { ATTRIBUTE_SPECS, type AttributeScope } from '../../graph/attribute-specs.js';
import { forEachWrittenAttribute } from '../each-attribute.js';
import { closest } from '../edit-distance.js';
import { GRAPHVIZ_ATTRIBUTES } from '../graphviz-attributes.js';
import type { LintRule } from '../lint-rule.js';

/**
 * Attributes a handler reads that `ATTRIBUTE_SPECS` does not list (their
 * values are free text, with nothing to check). Without them a typo such as
 * `tool_comand` had no known name to be near, and passed silently.
 */
export const UNTYPED_ATTRIBUTES: Readonly<Record<AttributeScope, readonly string[]>> = { graph: [], node: ['tool_command'], edge: [] };

const NAMES: Record<AttributeScope, Set<string>> = { graph: new Set(), node: new Set(), edge: new Set() };
for (const spec of ATTRIBUTE_SPECS) NAMES[spec.scope].add(spec.name);
for (const scope of ['graph', 'node', 'edge'] as const) for (const name of UNTYPED_ATTRIBUTES[scope]) NAMES[scope].add(name);

/**
 * `attribute_name` (warning): an attribute orchestra does not know, one or two
 * letters away from one it does (`promt`, `max_retry`, `conditon`; three
 * for long names such as `tool_comand`). Graphviz's own attributes are never
 * reported, on whatever they are written; other unknown attributes
 * (extensions) pass silently.
 */
export const attributeNameRule: LintRule = {
  name: 'attribute_name',
  apply(graph) {
    const out: Diagnostic[] = [];
    forEachWrittenAttribute(graph, ({ scope, key, owner, location, ref }) => {
      if (key.length < 4 || NAMES[scope].has(key) || GRAPHVIZ_ATTRIBUTES.has(key)) return;
      const suggestion = closest(key, NAMES[scope], key.length >= 9 ? 3 : 2);
      if (!suggestion) return;
      out.push({
        rule: 'attribute_name',
        severity: 'warning',
        message: `${owner}: unknown attribute ${JSON.stringify(key)}; it is ignored`,
        fix: `did you mean ${JSON.stringify(suggestion)}?`,
        ...ref,
        ...(location ? { location } : {}),
      });
    });
    return out;
  },
};
