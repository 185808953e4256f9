import type { Diagnostic, SourceLocation } from '../diagnostics/diagnostic.js';
import type { AttributeScope } from '../graph/attribute-specs.js';
import type { AttributeOrigin, Graph } from '../graph/model.js';

/** One attribute value as attribute rules see it. */
export interface AttributeVisit {
  scope: AttributeScope;
  key: string;
  value: string;
  origin: AttributeOrigin | undefined;
  /** Who carries it, for messages: `graph`, `node a`, `edge a -> b`, `node [...] defaults`. */
  owner: string;
  /** Where to point: the attribute, else its owner. */
  location: SourceLocation | undefined;
  /** `nodeId` / `edge` fields for a diagnostic about it. */
  ref: Pick<Diagnostic, 'nodeId' | 'edge'>;
}

/**
 * Visits every attribute of the graph, its nodes and its edges once per place
 * it was written: a value from a `node [...]` / `edge [...]` block or a
 * chained edge statement is visited for its first owner only, so a rule
 * reports a bad value once, where it was written.
 */
export function forEachWrittenAttribute(graph: Graph, visit: (attribute: AttributeVisit) => void): void {
  const seen = new Set<string>();
  const each = (
    scope: AttributeScope,
    attributes: Readonly<Record<string, string>>,
    origins: Readonly<Record<string, AttributeOrigin>>,
    owner: string,
    fallback: SourceLocation | undefined,
    ref: AttributeVisit['ref'],
  ) => {
    for (const key of Object.keys(attributes)) {
      const value = attributes[key] as string;
      const origin = origins[key];
      const location = origin?.location ?? fallback;
      // Only a value that can reach several owners (a default block, a chained edge statement, a
      // stylesheet rule) is remembered: a node's own attribute is written once (a 100k-node graph
      // would otherwise hold 100k keys per rule).
      if (origin?.location && (scope === 'edge' || origin.source !== 'explicit')) {
        const at = `${key}=${value}@${origin.location.line}:${origin.location.column}`;
        if (seen.has(at)) continue;
        seen.add(at);
      }
      const who = origin?.source === 'default' ? `${scope} [...] defaults` : origin?.source === 'transform' ? `${owner} (from model_stylesheet)` : owner;
      visit({ scope, key, value, origin, owner: who, location, ref });
    }
  };
  each('graph', graph.attributes, graph.origins, 'graph', graph.location, {});
  for (const node of graph.nodes.values()) each('node', node.attributes, node.origins, `node ${node.id}`, node.location, { nodeId: node.id });
  for (const e of graph.edges) {
    each('edge', e.attributes, e.origins, `edge ${e.from} -> ${e.to}`, e.location, { edge: { from: e.from, to: e.to } });
  }
}
