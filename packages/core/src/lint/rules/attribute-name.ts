import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { ATTRIBUTE_SPECS, findAttributeSpec, type AttributeScope } from '../../graph/attribute-specs.js';
import { forEachWrittenAttribute } from '../each-attribute.js';
import { closest } from '../edit-distance.js';
import type { LintRule } from '../lint-rule.js';

/** Graphviz attributes that sit close to orchestra's names but are legitimate. */
const GRAPHVIZ_NEIGHBOURS = new Set(['xlabel', 'headlabel', 'taillabel', 'lhead', 'ltail', 'layer', 'rank', 'ranks', 'group', 'shapefile', 'style']);

const NAMES: Record<AttributeScope, string[]> = { graph: [], node: [], edge: [] };
for (const spec of ATTRIBUTE_SPECS) NAMES[spec.scope].push(spec.name);

/**
 * `attribute_name` (warning): an attribute orchestra does not know, one or two
 * letters away from one it does (`promt`, `max_retry`, `conditon`; three
 * for long names). Other
 * unknown attributes (Graphviz styling, extensions) pass silently.
 */
export const attributeNameRule: LintRule = {
  name: 'attribute_name',
  apply(graph) {
    const out: Diagnostic[] = [];
    forEachWrittenAttribute(graph, ({ scope, key, owner, location, ref }) => {
      if (key.length < 4 || findAttributeSpec(scope, key) || GRAPHVIZ_NEIGHBOURS.has(key)) return;
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
