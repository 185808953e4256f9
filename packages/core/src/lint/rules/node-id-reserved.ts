import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { reservedNameOf } from '../../graph/reserved-node-ids.js';
import type { LintRule } from '../lint-rule.js';

/**
 * `node_id_reserved` (error): no node id names an entry the run directory
 * keeps for itself (`RESERVED_NODE_IDS`: `artifacts`), compared without
 * case. The node's stage directory would be that entry.
 */
export const nodeIdReservedRule: LintRule = {
  name: 'node_id_reserved',
  apply(graph) {
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      const reserved = reservedNameOf(node.id);
      if (!reserved) continue;
      const same = reserved === node.id ? '' : ' (names are compared without case, as on macOS and Windows)';
      out.push({
        rule: this.name,
        severity: 'error',
        message: `node id ${JSON.stringify(node.id)} is reserved: its stage directory would be the run directory's own ${reserved}/${same}`,
        fix: `rename the node (for example ${node.id}_step) and keep the name for people in label="..."`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
