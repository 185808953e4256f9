import type { Graph } from '@orchestra/core';
import { findStartNodes } from '@orchestra/core/loader';

/** A compass point of a node, as Graphviz's `tailport` / `headport` take it. */
export type Side = 'n' | 'e' | 's' | 'w';

/** Steps from the start node along edges; nodes it does not reach are left out. */
function depths(graph: Graph): Map<string, number> {
  const outgoing = new Map<string, string[]>();
  for (const edge of graph.edges) {
    const list = outgoing.get(edge.from) ?? [];
    list.push(edge.to);
    outgoing.set(edge.from, list);
  }
  const depth = new Map<string, number>();
  const queue = findStartNodes(graph).map((n) => n.id);
  for (const id of queue) depth.set(id, 0);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i] as string;
    for (const to of outgoing.get(id) ?? []) {
      if (depth.has(to)) continue;
      depth.set(to, (depth.get(id) ?? 0) + 1);
      queue.push(to);
    }
  }
  return depth;
}

/**
 * The side each edge of a picture goes round, by edge index (`undefined`:
 * the direct path). Graphviz's `dot` draws edges between the same two
 * nodes along nearly the same path when it cannot merge them into one
 * bundle: a loop (`a -> b`, `b -> a`) where one edge has a label and the
 * other not, parallel edges of which only some have labels, and with
 * `splines=line` or `curved` any two of them. So in each group of edges
 * between the same two nodes, the first edge going away from the start
 * keeps the direct path and every other one leaves and enters its nodes on
 * one side, alternating: right then left when ranks run top to bottom
 * (`rankdir` `TB`, `BT`), below then above when they run sideways (`LR`,
 * `RL`). A loop's way back is thus drawn round the side. Edges from a node
 * to itself are left alone (Graphviz spreads those).
 */
export function edgeSides(graph: Graph, rankdir: string): (Side | undefined)[] {
  const sideways = rankdir === 'LR' || rankdir === 'RL';
  const sides: readonly Side[] = sideways ? ['s', 'n'] : ['e', 'w'];
  const depth = depths(graph);
  const groups = new Map<string, number[]>();
  graph.edges.forEach((edge, index) => {
    if (edge.from === edge.to) return;
    const key = JSON.stringify([edge.from, edge.to].sort());
    const members = groups.get(key) ?? [];
    members.push(index);
    groups.set(key, members);
  });
  const result: (Side | undefined)[] = graph.edges.map(() => undefined);
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const first = graph.edges[members[0] as number];
    if (!first) continue;
    // Away from the start: from the nearer node to the farther; a tie (or neither reached) keeps the first edge's direction.
    const [a, b] = [depth.get(first.from) ?? Infinity, depth.get(first.to) ?? Infinity];
    const forwardFrom = b < a ? first.to : first.from;
    const ordered = [...members.filter((i) => graph.edges[i]?.from === forwardFrom), ...members.filter((i) => graph.edges[i]?.from !== forwardFrom)];
    ordered.forEach((index, position) => {
      if (position > 0) result[index] = sides[(position - 1) % 2];
    });
  }
  return result;
}
