import type { Handler } from '../engine/handler.js';
import type { GraphNode } from '../graph/model.js';

/** Whether a node asks for a conversation (`agent.mode="interactive"`). */
export function isInteractiveNode(node: GraphNode): boolean {
  return node.attributes['agent.mode'] === 'interactive';
}

/**
 * The `codergen` handler: nodes with `agent.mode="interactive"` go to
 * `interactive`, the others to `standard`. Without an interactive handler
 * (the backend cannot hold conversations) an interactive node is refused
 * before the run starts.
 */
export function createCodergenDispatcher(standard: Handler, interactive: Handler | undefined): Handler {
  return {
    execute(input) {
      if (!isInteractiveNode(input.node)) return standard.execute(input);
      if (!interactive) return { status: 'fail', failureReason: `${input.node.id} is interactive but the backend cannot hold a conversation` };
      return interactive.execute(input);
    },
    cannotRun(node, graph) {
      if (isInteractiveNode(node)) {
        return interactive
          ? interactive.cannotRun?.(node, graph)
          : `node ${node.id} is interactive (agent.mode="interactive") but the backend cannot hold a conversation (it has no startConversation)`;
      }
      return standard.cannotRun?.(node, graph);
    },
  };
}
