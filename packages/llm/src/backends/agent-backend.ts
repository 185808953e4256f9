import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CodergenBackend, ConversationalBackend, GraphNode } from '@orchestra/core';
import { agentSettings, emptyConfig, ModelConfigError, type LoadedConfig } from '../config/index.js';
import type { ThreadSessions } from '../fidelity/thread-sessions.js';
import { DEFAULT_WORKSPACE_TOOLS, type WorkspaceToolName } from '../tools/index.js';
import { agentKit, workspaceProblem } from './agent-kit.js';
import { createLangChainBackend } from './langchain-backend.js';

/** Options of {@link createAgentBackend}. */
export interface AgentBackendOptions {
  /** A LangChain chat model that can call tools (`bindTools`), or one per stage. */
  model: BaseChatModel | ((node: GraphNode) => BaseChatModel);
  /** The directory the workspace tools are confined to (absolute). */
  workspace: string;
  /** Which workspace tools (default: all but `run_command`); a node's `agent.tools` overrides. */
  workspaceTools?: readonly WorkspaceToolName[];
  /** LangChain tools of your own, offered besides the workspace tools. */
  tools?: readonly StructuredToolInterface[];
  /** Most model calls per stage (default 20); a node's `agent.max_turns` overrides. */
  maxTurns?: number;
  /** Longest one `run_command` may run (default 2 minutes). */
  commandTimeoutMs?: number;
  /** Environment variables `run_command` must not see (names ending in _API_KEY, _TOKEN, ... are always removed). */
  scrubEnv?: readonly string[];
  sessions?: ThreadSessions;
  system?: string;
}

/**
 * The `agent` backend for library users: each stage runs a tool-calling loop
 * (`bindTools`) over the workspace tools confined to `workspace` (a path
 * that escapes it, by `..` or a symbolic link, is refused and the model is
 * told), your own LangChain tools, and the pipeline's `tool_hooks`, until
 * the model answers without tools or `agent.max_turns` is reached.
 */
export function createAgentBackend(options: AgentBackendOptions): CodergenBackend & ConversationalBackend {
  const base = emptyConfig(options.workspace);
  const config: LoadedConfig = {
    ...base,
    config: {
      agent: {
        workspace: options.workspace,
        tools: [...(options.workspaceTools ?? DEFAULT_WORKSPACE_TOOLS)],
        ...(options.maxTurns !== undefined ? { max_turns: options.maxTurns } : {}),
        ...(options.commandTimeoutMs !== undefined ? { command_timeout: `${options.commandTimeoutMs}ms` } : {}),
      },
    },
  };
  const pick = typeof options.model === 'function' ? options.model : () => options.model as BaseChatModel;
  return createLangChainBackend({
    model: (node) => {
      const model = pick(node);
      return { model, name: model.getName() };
    },
    tools: (request) => agentKit(request, agentSettings(config, request.node), options.tools ?? [], options.scrubEnv ?? []),
    cannotRun: (node) => {
      try {
        return workspaceProblem(node.id, agentSettings(config, node), config);
      } catch (error) {
        if (error instanceof ModelConfigError) return error.message;
        throw error;
      }
    },
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.system !== undefined ? { system: options.system } : {}),
  });
}
