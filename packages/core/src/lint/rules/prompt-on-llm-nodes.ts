import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { LLM_HANDLER_TYPES, resolveHandlerType } from '../../graph/handler-types.js';
import { findExitNodes, findStartNodes } from '../../graph/terminals.js';
import type { LintRule } from '../lint-rule.js';

/** `prompt_on_llm_nodes` (warning): codergen and conference nodes say what to do (or ask), with `prompt` or `label`. */
export const promptOnLlmNodesRule: LintRule = {
  name: 'prompt_on_llm_nodes',
  apply(graph) {
    const out: Diagnostic[] = [];
    // A shape-less node named start/exit is the pipeline's start/exit, not an LLM stage.
    const terminals = new Set([...findStartNodes(graph), ...findExitNodes(graph)]);
    for (const node of graph.nodes.values()) {
      if (terminals.has(node) || !LLM_HANDLER_TYPES.has(resolveHandlerType(node))) continue;
      if (node.attributes.prompt?.trim() || node.attributes.label?.trim()) continue;
      out.push({
        rule: this.name,
        severity: 'warning',
        message: `LLM node ${node.id} has neither prompt nor label; its prompt would be just its id`,
        fix: `add prompt="..." to ${node.id} (or give it another shape if it is not an LLM stage)`,
        nodeId: node.id,
        ...(node.location ? { location: node.location } : {}),
      });
    }
    return out;
  },
};
