import { findStartNodes } from '../../graph/terminals.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintRule } from '../lint-rule.js';

/** `reachability` (error): every node is reachable from the start node. */
export const reachabilityRule: LintRule = {
  name: 'reachability',
  apply(graph) {
    const starts = findStartNodes(graph);
    if (starts.length !== 1) return [];
    const next = new Map<string, string[]>();
    for (const e of graph.edges) {
      const list = next.get(e.from);
      if (list) list.push(e.to);
      else next.set(e.from, [e.to]);
    }
    const start = (starts[0] as (typeof starts)[number]).id;
    const seen = new Set<string>([start]);
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const to of next.get(queue[i] as string) ?? []) {
        if (!seen.has(to)) {
          seen.add(to);
          queue.push(to);
        }
      }
    }
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (seen.has(node.id)) continue;
      out.push({
        rule: this.name,
        severity: 'error',
        message: `node ${node.id} cannot be reached from the start node ${start}`,
        fix: `add an edge into ${node.id} or remove it`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
