import type { Diagnostic, SourceLocation } from '../../diagnostics/diagnostic.js';
import { FIDELITY_MODES } from '../../graph/attribute-specs.js';
import type { LintRule } from '../lint-rule.js';

const MODES: readonly string[] = FIDELITY_MODES;
const FIX = `use one of ${FIDELITY_MODES.join(', ')}`;

/** `fidelity_valid` (warning): fidelity modes on nodes, edges and the graph are known (spec §5.4). */
export const fidelityValidRule: LintRule = {
  name: 'fidelity_valid',
  apply(graph) {
    const out: Diagnostic[] = [];
    const check = (value: string | undefined, what: string, location: SourceLocation | undefined, ref: Partial<Diagnostic>) => {
      if (value === undefined || value === '' || MODES.includes(value)) return;
      out.push({
        rule: 'fidelity_valid',
        severity: 'warning',
        message: `${what} has unknown fidelity ${JSON.stringify(value)}`,
        fix: FIX,
        ...ref,
        ...(location ? { location } : {}),
      });
    };
    check(graph.attributes.default_fidelity, 'the graph (default_fidelity)', graph.origins.default_fidelity?.location, {});
    for (const node of graph.nodes.values()) {
      check(node.attributes.fidelity, `node ${node.id}`, node.origins.fidelity?.location ?? node.location, { nodeId: node.id });
    }
    for (const e of graph.edges) {
      check(e.attributes.fidelity, `edge ${e.from} -> ${e.to}`, e.origins.fidelity?.location ?? e.location, {
        edge: { from: e.from, to: e.to },
      });
    }
    return out;
  },
};
