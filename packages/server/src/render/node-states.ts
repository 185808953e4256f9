import type { Graph } from '@orchestra/core';
import type { Checkpoint } from '@orchestra/core/store';

/** What a picture shows of a node's place in a run. */
export type NodeState = 'pending' | 'completed' | 'failed' | 'current';

/**
 * Each node's state in a run, from its checkpoint: `completed` (its latest
 * outcome a success, partial success or skip), `failed` (also the node a
 * failed run stopped at), `current` (where an unfinished run is or stopped),
 * `pending` (not reached). Nodes the checkpoint
 * names but the graph does not have are left out.
 */
export function nodeStates(graph: Graph, checkpoint: Pick<Checkpoint, 'completed_nodes' | 'node_outcomes' | 'current_node' | 'status'>): Map<string, NodeState> {
  const states = new Map<string, NodeState>();
  for (const id of graph.nodes.keys()) states.set(id, 'pending');
  for (const id of checkpoint.completed_nodes) {
    if (!states.has(id)) continue;
    states.set(id, checkpoint.node_outcomes[id] === 'fail' ? 'failed' : 'completed');
  }
  // The node the run is at: where it failed, or where it goes on.
  const current = checkpoint.current_node;
  if (current && states.has(current) && checkpoint.status !== 'completed') states.set(current, checkpoint.status === 'failed' ? 'failed' : 'current');
  return states;
}
