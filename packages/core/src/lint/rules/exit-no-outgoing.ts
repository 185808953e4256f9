import { findExitNodes } from '../../graph/terminals.js';
import type { LintRule } from '../lint-rule.js';

/** `exit_no_outgoing` (error): the exit node has no outgoing edges. */
export const exitNoOutgoingRule: LintRule = {
  name: 'exit_no_outgoing',
  apply(graph) {
    const exits = findExitNodes(graph);
    if (exits.length !== 1) return [];
    const exit = (exits[0] as (typeof exits)[number]).id;
    return graph.edges
      .filter((e) => e.from === exit)
      .map((e) => ({
        rule: this.name,
        severity: 'error' as const,
        message: `edge ${e.from} -> ${e.to} leaves the exit node`,
        fix: 'remove the edge; the exit node ends the run',
        edge: { from: e.from, to: e.to },
        ...(e.location ? { location: e.location } : {}),
      }));
  },
};
