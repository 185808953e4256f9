import { findStartNodes } from '../../graph/terminals.js';
import type { LintRule } from '../lint-rule.js';

/** `start_no_incoming` (error): nothing leads back into the start node. */
export const startNoIncomingRule: LintRule = {
  name: 'start_no_incoming',
  apply(graph) {
    const starts = findStartNodes(graph);
    if (starts.length !== 1) return [];
    const start = (starts[0] as (typeof starts)[number]).id;
    return graph.edges
      .filter((e) => e.to === start)
      .map((e) => ({
        rule: this.name,
        severity: 'error' as const,
        message: `edge ${e.from} -> ${e.to} enters the start node`,
        fix: 'point the edge at the first real stage instead',
        edge: { from: e.from, to: e.to },
        ...(e.location ? { location: e.location } : {}),
      }));
  },
};
