import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CodergenRequest, ConversationStart } from '@orchestra/core';
import type { AgentSettings } from '../config/index.js';
import { createToolHookGuard, createWorkspaceTools, hooksFor } from '../tools/index.js';
import type { StageTools } from './langchain-backend.js';

/**
 * An agent stage's tools: the workspace tools its settings allow (confined
 * to the workspace), the extra LangChain tools given, and its `tool_hooks`
 * (node over graph) around every call. `scrubEnv`: variables never shown to
 * `run_command` (the provider keys).
 */
export function agentKit(
  request: CodergenRequest | ConversationStart,
  settings: AgentSettings,
  extraTools: readonly StructuredToolInterface[],
  scrubEnv: readonly string[],
): StageTools {
  const workspace = createWorkspaceTools({ root: settings.workspace, tools: settings.tools, commandTimeoutMs: settings.commandTimeoutMs, scrubEnv });
  const hooks = hooksFor(request.node, request.graph);
  const guarded = hooks.pre !== undefined || hooks.post !== undefined;
  return {
    tools: [...workspace, ...extraTools],
    maxTurns: settings.maxTurns,
    // Hooks are the pipeline author's commands: they run where tool_command does, the run's working directory.
    ...(guarded ? { guard: createToolHookGuard({ hooks, nodeId: request.node.id, cwd: request.workdir, stageDir: request.stageDir }) } : {}),
  };
}
