import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Graph } from '../../graph/model.js';
import type { LintRule } from '../lint-rule.js';
import { closure, runPaths, type RunPaths } from '../run-paths.js';

/**
 * `exit_reachable` (warning): from every node a run can reach, some path
 * leads to the exit node. Found by a search backwards from the exit along
 * edges (any condition, `loop_restart` too) and the failure routes
 * (`retry_target`, `fallback_retry_target`). The search also starts at the
 * dead ends (`dead_end` reports them: a run ends there), so a node is
 * reported only when every path from it loops without end, or fans out into
 * branches that meet at no fan-in node: a run that gets there cannot
 * complete. Nodes of a parallel branch count as reaching the exit when their
 * parallel node does (the run goes on at the fan-in node). Nodes without
 * outgoing edges are left to `dead_end`; skipped unless there is exactly one
 * start and one exit node.
 */
export const exitReachableRule: LintRule = {
  name: 'exit_reachable',
  apply(graph) {
    const paths = runPaths(graph);
    if (!paths) return [];
    const finishing = nodesThatFinish(graph, paths);
    const out: Diagnostic[] = [];
    for (const node of graph.nodes.values()) {
      if (finishing.has(node.id) || !paths.fromStart.has(node.id) || !paths.next.has(node.id)) continue;
      if (paths.branchOf.get(node.id)?.some((fanOut) => finishing.has(fanOut))) continue;
      out.push({
        rule: this.name,
        severity: 'warning',
        message: `the exit node ${paths.exit} cannot be reached from node ${node.id}: a run that gets here cannot complete`,
        fix: `add an edge from ${node.id}, or from a node after it, towards ${paths.exit}`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};

/** Nodes from which the exit, or a dead end outside parallel branches, can be reached. */
function nodesThatFinish(graph: Graph, paths: RunPaths): Set<string> {
  const previous = new Map<string, string[]>();
  const link = (from: string, to: string) => {
    const list = previous.get(to);
    if (list) list.push(from);
    else previous.set(to, [from]);
  };
  for (const [from, targets] of paths.next) for (const to of targets) link(from, to);
  const ends = [paths.exit];
  for (const node of graph.nodes.values()) {
    for (const target of [node.attributes.retry_target, node.attributes.fallback_retry_target]) if (target && graph.nodes.has(target)) link(node.id, target);
    if (node.id !== paths.exit && !paths.next.has(node.id) && !paths.branchOf.has(node.id)) ends.push(node.id);
  }
  return closure(ends, previous);
}
