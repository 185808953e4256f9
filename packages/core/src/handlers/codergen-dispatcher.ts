import type { Handler } from '../engine/handler.js';
import type { GraphNode } from '../graph/model.js';

/** How phased LLM stages (`output.schema`) that set no `agent.mode` hold their Discuss phase. */
export type PhasedMode = 'direct' | 'interactive';

/**
 * Whether a node holds a conversation: `agent.mode="interactive"`, or a
 * phased stage (one with `output.schema`) that sets no `agent.mode` when
 * `phasedMode` is `interactive`.
 */
export function isInteractiveNode(node: GraphNode, phasedMode: PhasedMode = 'direct'): boolean {
  const mode = node.attributes['agent.mode'];
  if (mode !== undefined && mode !== '') return mode === 'interactive';
  return phasedMode === 'interactive' && Boolean(node.attributes['output.schema']?.trim());
}

/**
 * The `codergen` handler: interactive nodes (see {@link isInteractiveNode})
 * go to `interactive`, the others to `standard`. Without an interactive handler
 * (the backend cannot hold conversations) an interactive node is refused
 * before the run starts.
 */
export function createCodergenDispatcher(standard: Handler, interactive: Handler | undefined, phasedMode: PhasedMode = 'direct'): Handler {
  return {
    execute(input) {
      if (!isInteractiveNode(input.node, phasedMode)) return standard.execute(input);
      if (!interactive) return { status: 'fail', failureReason: `${input.node.id} is interactive but the backend cannot hold a conversation` };
      return interactive.execute(input);
    },
    cannotRun(node, graph) {
      if (isInteractiveNode(node, phasedMode)) {
        return interactive
          ? interactive.cannotRun?.(node, graph)
          : `node ${node.id} is interactive (agent.mode="interactive") but the backend cannot hold a conversation (it has no startConversation)`;
      }
      return standard.cannotRun?.(node, graph);
    },
  };
}
