import { statSync } from 'node:fs';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CodergenRequest, ConversationStart } from '@orchestra/core';
import type { AgentSettings, LoadedConfig } from '../config/index.js';
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
  const processes = request.processes ? { processes: request.processes } : {};
  const workspace = createWorkspaceTools({ root: settings.workspace, tools: settings.tools, commandTimeoutMs: settings.commandTimeoutMs, scrubEnv, ...processes });
  const hooks = hooksFor(request.node, request.graph);
  const guarded = hooks.pre !== undefined || hooks.post !== undefined;
  return {
    tools: [...workspace, ...extraTools],
    maxTurns: settings.maxTurns,
    // Hooks are the pipeline author's commands: they run where tool_command does, the run's working directory.
    ...(guarded ? { guard: createToolHookGuard({ hooks, nodeId: request.node.id, cwd: request.workdir, stageDir: request.stageDir, ...processes }) } : {}),
  };
}

/**
 * Why an agent stage cannot run with these settings: its workspace is not an
 * existing directory (every tool call would fail). `config` says where the
 * workspace was set, for the message.
 */
export function workspaceProblem(nodeId: string, settings: AgentSettings, config: LoadedConfig): string | undefined {
  let isDirectory = false;
  try {
    isDirectory = statSync(settings.workspace).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (isDirectory) return undefined;
  const where = config.where(['agent', 'workspace']);
  return `the agent workspace of node ${nodeId}, ${settings.workspace}, is not an existing directory${where ? ` (agent.workspace at ${where})` : ''}: create it or point agent.workspace at the project`;
}
