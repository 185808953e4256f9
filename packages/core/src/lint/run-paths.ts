import { resolveHandlerType } from '../graph/handler-types.js';
import type { Graph } from '../graph/model.js';
import { findExitNodes, findStartNodes } from '../graph/terminals.js';

/**
 * Where a run can go, as the structural warnings (`dead_end`,
 * `exit_reachable`) see it. Every edge counts, whatever its `condition`
 * (which only a run can evaluate) and with `loop_restart` too (the run
 * continues at its target, in a new directory).
 */
export interface RunPaths {
  /** The start node's id. */
  start: string;
  /** The exit node's id. */
  exit: string;
  /** The targets of each node's edges (only edges between existing nodes). */
  next: ReadonlyMap<string, readonly string[]>;
  /** Nodes a run can reach from the start by following edges. */
  fromStart: ReadonlySet<string>;
  /**
   * Nodes that run inside a parallel branch, with the parallel nodes whose
   * branches reach them: reachable from a parallel node's edge targets
   * without passing a fan-in or exit node (where branches stop, as a run
   * stops them). A branch that ends at a node with no edges ends there, and
   * the run goes on at the fan-in node the other branches reached.
   */
  branchOf: ReadonlyMap<string, readonly string[]>;
}

const cache = new WeakMap<Graph, RunPaths | null>();

/**
 * The {@link RunPaths} of a graph with exactly one start and one exit node;
 * undefined otherwise (`start_node` and `terminal_node` report that, and
 * without them every node would be reported again). Computed once a graph.
 */
export function runPaths(graph: Graph): RunPaths | undefined {
  let paths = cache.get(graph);
  if (paths === undefined) {
    paths = compute(graph);
    cache.set(graph, paths);
  }
  return paths ?? undefined;
}

function compute(graph: Graph): RunPaths | null {
  const starts = findStartNodes(graph);
  const exits = findExitNodes(graph);
  if (starts.length !== 1 || exits.length !== 1) return null;
  const start = (starts[0] as (typeof starts)[number]).id;
  const exit = (exits[0] as (typeof exits)[number]).id;
  const next = new Map<string, string[]>();
  for (const e of graph.edges) {
    if (!graph.nodes.has(e.from) || !graph.nodes.has(e.to)) continue;
    const list = next.get(e.from);
    if (list) list.push(e.to);
    else next.set(e.from, [e.to]);
  }
  const fromStart = closure([start], next);
  // Branches stop before fan-in nodes and the exit (engine/plan.ts, branchBoundaries).
  const boundaries = new Set([exit]);
  const fanOuts: string[] = [];
  for (const node of graph.nodes.values()) {
    if (node.id === start || node.id === exit) continue;
    const type = resolveHandlerType(node);
    if (type === 'parallel.fan_in') boundaries.add(node.id);
    else if (type === 'parallel') fanOuts.push(node.id);
  }
  const branchOf = new Map<string, string[]>();
  for (const fanOut of fanOuts) {
    const branchStarts = (next.get(fanOut) ?? []).filter((id) => !boundaries.has(id));
    for (const id of closure(branchStarts, next, (id) => boundaries.has(id) || id === fanOut)) {
      const list = branchOf.get(id);
      if (list) list.push(fanOut);
      else branchOf.set(id, [fanOut]);
    }
  }
  return { start, exit, next, fromStart, branchOf };
}

/** Every node reachable from `from` (included) along `edges`, not entering nodes `stop` holds. */
export function closure(from: readonly string[], edges: ReadonlyMap<string, readonly string[]>, stop: (id: string) => boolean = () => false): Set<string> {
  const seen = new Set<string>(from);
  const queue = [...from];
  for (let i = 0; i < queue.length; i++) {
    for (const to of edges.get(queue[i] as string) ?? []) {
      if (seen.has(to) || stop(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}
