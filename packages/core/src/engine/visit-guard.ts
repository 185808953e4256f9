import type { Graph, GraphNode } from '../graph/model.js';
import { integerAttr } from '../graph/values.js';

/** Most times a node may run in one run when neither it (`max_visits`) nor the graph (`default_max_visits`) says. */
export const DEFAULT_MAX_VISITS = 100;

/** Most nodes of a loop named in the message. */
const LOOP_NODES_SHOWN = 8;

/** How many times `node` may run in one run (`0`: no limit). */
export function maxVisits(node: GraphNode, graph: Graph): number {
  const limit = integerAttr(node, 'max_visits') ?? integerAttr(graph, 'default_max_visits') ?? DEFAULT_MAX_VISITS;
  return limit < 0 ? DEFAULT_MAX_VISITS : limit;
}

/**
 * The runaway-loop guard (an orchestra extension): counts the visits of
 * each node in a run (or a parallel branch) and says why the next one is
 * refused once a node has run its `max_visits` times. Retries of one visit
 * do not count.
 */
export class VisitGuard {
  private readonly visits = new Map<string, number>();

  /** @param done the nodes completed so far, in order (a resumed run's history). */
  constructor(
    private readonly graph: Graph,
    private readonly done: readonly string[],
  ) {
    for (const id of done) this.visits.set(id, (this.visits.get(id) ?? 0) + 1);
  }

  /** Records that `nodeId` completed (call after it is appended to `done`). */
  visited(nodeId: string): void {
    this.visits.set(nodeId, (this.visits.get(nodeId) ?? 0) + 1);
  }

  /** Why `node` may not run again, or undefined when it may. */
  refusal(node: GraphNode): string | undefined {
    const limit = maxVisits(node, this.graph);
    const count = this.visits.get(node.id) ?? 0;
    if (limit === 0 || count < limit) return undefined;
    return `node ${node.id} already ran ${count} times (max_visits=${limit}): the run is looping through ${this.loop(node.id)}; raise max_visits on ${node.id} (or default_max_visits on the graph; 0 for no limit) if the loop is meant to go on`;
  }

  /** The nodes from the node's last run to now, back to it: `a -> b -> a`. */
  private loop(nodeId: string): string {
    const last = this.done.lastIndexOf(nodeId);
    const path = [...this.done.slice(last), nodeId];
    if (path.length <= LOOP_NODES_SHOWN) return path.join(' -> ');
    return [...path.slice(0, LOOP_NODES_SHOWN - 2), '...', ...path.slice(-2)].join(' -> ');
  }
}
