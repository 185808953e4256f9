import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { GraphNode } from '@orchestra/core';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { WORKSPACE_TOOL_NAMES, type WorkspaceToolName } from '@orchestra/core/loader';
import type { ChiefRequest, ChiefResult, ConferenceBackend, ConferenceRole, RoleCallRequest, RoleCallResult } from '@orchestra/core/handlers';
import { addUsage } from '@orchestra/core/store';
import type { TokenUsage } from '@orchestra/core';
import { runAgentLoop } from '../backends/agent-loop.js';
import { callModel, type ChatRunnable } from '../backends/call-model.js';
import type { StageModel } from '../backends/langchain-backend.js';
import { agentSettings, type LoadedConfig } from '../config/index.js';
import { conferenceRoles, configuredTemplates } from '../config/conference-roles.js';
import { createToolHookGuard, createWorkspaceTools, hooksFor } from '../tools/index.js';
import { CHIEF_SYSTEM, toolRequiredReminder } from './chief-prompt.js';
import { withReceipts } from './receipt-tools.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';

/** What {@link createConferenceBackend} needs. */
export interface ConferenceBackendOptions {
  config: LoadedConfig;
  /** The chief's model: the node's. */
  chiefModel: (node: GraphNode) => StageModel;
  /** A role's model: its `model`, else the node's. */
  roleModel: (node: GraphNode, role: ConferenceRole) => StageModel;
  /** Environment variables `run_command` must not see (the provider keys). */
  scrubEnv: readonly string[];
  /** Why a node (or one of its roles) cannot be given a model. */
  cannotRun?: ConferenceBackend['cannotRun'];
  /** Wraps the chief's workspace tools before receipts are added (a cassette records or answers their calls). */
  wrapTools?: (node: GraphNode, tools: StructuredToolInterface[]) => StructuredToolInterface[];
  /** Wraps the chief's tool hooks (a cassette records or answers their verdicts). */
  wrapGuard?: (node: GraphNode, guard: ToolCallGuard) => ToolCallGuard;
}

function bind(model: BaseChatModel, tools: Parameters<NonNullable<BaseChatModel['bindTools']>>[0]): ChatRunnable {
  if (typeof model.bindTools !== 'function') throw new Error(`the model ${model.getName()} cannot call tools (it has no bindTools): a conference's chief needs one that can`);
  return model.bindTools(tools) as ChatRunnable;
}

function wrapped(stage: StageModel, error: unknown, signal: AbortSignal): unknown {
  return signal.aborted || !stage.wrapError ? error : stage.wrapError(error);
}

/**
 * The model side of conference nodes over LangChain and `orchestra.yaml`:
 * roles from `roles:`, the chief as a tool-calling loop over only the
 * workspace tools `conference.tools` allows (confined to `agent.workspace`,
 * each call through the `tool_hooks` and given a receipt), and each role
 * call a single streamed call with no tools bound.
 */
export function createConferenceBackend(options: ConferenceBackendOptions): ConferenceBackend {
  const { config } = options;
  return {
    roles: (names, node) => conferenceRoles(config, names, node),
    toolNames: () => WORKSPACE_TOOL_NAMES,
    workspace: (node) => agentSettings(config, node).workspace,
    templates: () => configuredTemplates(config),
    ...(options.cannotRun ? { cannotRun: options.cannotRun } : {}),

    async runChief(request: ChiefRequest): Promise<ChiefResult> {
      const stage = options.chiefModel(request.node);
      const settings = agentSettings(config, request.node);
      const processes = request.processes ? { processes: request.processes } : {};
      const workspaceTools = createWorkspaceTools({ root: settings.workspace, tools: request.tools as WorkspaceToolName[], commandTimeoutMs: settings.commandTimeoutMs, scrubEnv: options.scrubEnv, ...processes });
      const tools = withReceipts(options.wrapTools ? options.wrapTools(request.node, workspaceTools) : workspaceTools, request.receipt);
      const hooks = hooksFor(request.node, request.graph);
      const stageDir = request.stage.directory();
      const hooked = hooks.pre !== undefined || hooks.post !== undefined ? createToolHookGuard({ hooks, nodeId: request.node.id, cwd: request.workdir, stageDir, ...processes }) : undefined;
      const guard = hooked && options.wrapGuard ? options.wrapGuard(request.node, hooked) : hooked;
      const messages: BaseMessage[] = [new SystemMessage(CHIEF_SYSTEM), new HumanMessage(request.question)];
      const loop = (maxTurns: number) =>
        runAgentLoop(messages, {
          nodeId: request.node.id,
          model: bind(stage.model, tools),
          modelName: stage.name,
          price: stage.price,
          tools: new Map(tools.map((t) => [t.name, t])),
          maxTurns,
          ...(guard ? { guard } : {}),
          stageDir,
          signal: request.signal,
          report: request.report,
        });
      const toolCalls = () => messages.filter((m) => m instanceof AIMessage && (m.tool_calls?.length ?? 0) > 0).length;
      try {
        let result = await loop(request.maxTurns);
        let calls = result.calls;
        let usage: TokenUsage | undefined = result.usage;
        // The first step must be a tool call: a reply without one goes back once.
        if (request.requireTool && toolCalls() === 0 && calls < request.maxTurns) {
          messages.push(new HumanMessage(toolRequiredReminder(request.tools)));
          result = await loop(request.maxTurns - calls);
          calls += result.calls;
          usage = addUsage(usage, result.usage);
        }
        return { reply: result.text, model: stage.name, calls, ...(usage ? { usage } : {}) };
      } catch (error) {
        throw wrapped(stage, error, request.signal);
      }
    },

    async askRole(request: RoleCallRequest): Promise<RoleCallResult> {
      const stage = options.roleModel(request.node, request.role);
      const messages: BaseMessage[] = [new SystemMessage(request.system), ...request.messages.map((m) => (m.role === 'user' ? new HumanMessage(m.content) : new AIMessage(m.content)))];
      try {
        // No tools are bound: a role's call sends no tool catalogue.
        const reply = await callModel(stage.model, messages, { signal: request.signal, report: request.report, modelName: stage.name, price: stage.price });
        return { text: reply.message.text, model: reply.model, ...(reply.usage ? { usage: reply.usage } : {}) };
      } catch (error) {
        throw wrapped(stage, error, request.signal);
      }
    },
  };
}
