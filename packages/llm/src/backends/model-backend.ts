import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CodergenBackend, CodergenRequest, ConversationalBackend, ConversationStart, Graph, GraphNode } from '@orchestra/core';
import { isOrchestraError, type Cassette } from '@orchestra/core';
import {
  agentSettings,
  cliAgentSettings,
  ModelConfigError,
  resolveModel,
  type Env,
  type LoadedConfig,
  type ModelFlags,
  type ResolvedModel,
} from '../config/index.js';
import { buildPreamble } from '../fidelity/preamble.js';
import { ThreadSessions } from '../fidelity/thread-sessions.js';
import { describeProviderError, type ProviderTarget } from '../errors/provider-error.js';
import { createChatModel } from '../models/create-chat-model.js';
import { agentKit, workspaceProblem } from './agent-kit.js';
import { createCliAgentBackend } from './cli-backend.js';
import { phasedNodeProblem, type PhaseRegistry } from '../phases/phase-spec.js';
import { createLangChainBackend, type StageModel, type StageTools } from './langchain-backend.js';
import { conferenceSettings, type ConferenceRole } from '@orchestra/core/handlers';
import { createConferenceBackend } from '../conference/conference-backend.js';
import { conferenceRoles, configuredTemplates } from '../config/conference-roles.js';
import { priceOf } from '../config/prices.js';
import { apiKeyVariables } from '../config/api-key-variables.js';
import { CassetteChatModel } from '../cassette/cassette-chat-model.js';
import { setModelProvider } from './model-provider.js';
import { cassetteTools } from '../cassette/cassette-tools.js';
import { cassetteGuard } from '../cassette/cassette-guard.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';
import { conversationInRun, inRun } from '../cassette/run-scope.js';

/** Options of {@link createModelBackend}. */
export interface ModelBackendOptions {
  /** The loaded `orchestra.yaml` layers (see `loadConfig`). */
  config: LoadedConfig;
  /** Where API keys and `OPENAI_*` come from (default `process.env`). */
  env?: Env;
  /** Per-run overrides (`--model`, `--base-url`, `--backend`). */
  flags?: ModelFlags;
  /** Builds the chat model for a resolved target; default `ChatOpenAI`. Tests and library users may pass any LangChain chat model. */
  createModel?: (resolved: ResolvedModel) => BaseChatModel;
  /** LangChain tools offered to agent stages besides the workspace tools. */
  tools?: readonly StructuredToolInterface[];
  /** Sessions for `full` fidelity (one is created otherwise). */
  sessions?: ThreadSessions;
  /** A system prompt before each fresh session's preamble. */
  system?: string;
  /** Zod schemas and validators phased nodes may name (`output.schema="zod:<name>"`, `output.validators`). */
  phases?: PhaseRegistry;
  /**
   * A cassette (`CassetteRecorder` or `CassettePlayer` from `@orchestra/core`):
   * recording, every model call and agent tool call is recorded as it
   * completes; replaying, they are answered from it — no client is made, no
   * API key is needed, no tool runs. Stages on the `cli` backend cannot be
   * recorded and are refused up front.
   */
  cassette?: Cassette;
}

/** The model backend, plus what it resolved (for `orchestra doctor` and error messages). */
export interface ModelBackend extends CodergenBackend, ConversationalBackend {
  /** What a node resolves to (throws `ModelConfigError` when it cannot be resolved). */
  resolve(node: GraphNode): ResolvedModel;
}

function targetOf(resolved: ResolvedModel): ProviderTarget {
  return {
    provider: resolved.provider.name,
    baseUrl: resolved.provider.baseUrl,
    ...(resolved.model ? { model: resolved.model } : {}),
    ...(resolved.provider.apiKeyEnv ? { apiKeyEnv: resolved.provider.apiKeyEnv } : {}),
    hasKey: resolved.provider.apiKey !== undefined,
    modelSource: resolved.sources.model,
    baseUrlSource: resolved.sources.baseUrl,
  };
}

/** A key telling apart the clients two nodes need (same model, endpoint and options share one). */
function clientKey(resolved: ResolvedModel): string {
  const { provider } = resolved;
  return JSON.stringify([resolved.model, provider.name, provider.baseUrl, provider.apiKey, provider.headers, provider.timeoutMs, resolved.reasoningEffort, resolved.temperature, resolved.maxTokens]);
}

/**
 * The backend `orchestra run` uses: for each LLM stage it resolves the
 * backend kind, model and provider from the node, the model stylesheet,
 * the flags and `orchestra.yaml` (see `resolveModel`), then runs the stage
 * on the `chat` backend (one streamed call), the `agent` backend (a
 * tool-calling loop over the workspace tools, the `tools` given here and the
 * `tool_hooks`) or the `cli` backend (the configured command). Clients are
 * shared between stages that resolve alike. `cannotRun` refuses a run up
 * front when a stage has no model, provider, key or command.
 */
export function createModelBackend(options: ModelBackendOptions): ModelBackend {
  const env = options.env ?? process.env;
  const flags = options.flags ?? {};
  const createModel = options.createModel ?? createChatModel;
  const sessions = options.sessions ?? new ThreadSessions();
  // By node object: a backend may serve several pipelines whose node ids coincide.
  const resolved = new WeakMap<GraphNode, ResolvedModel>();
  const clients = new Map<string, BaseChatModel>();
  const { cassette } = options;

  const resolve = (node: GraphNode): ResolvedModel => {
    let r = resolved.get(node);
    if (!r) {
      r = resolveModel(node, { config: options.config, env, flags, ...(cassette?.mode === 'replay' ? { requireKey: false } : {}) });
      resolved.set(node, r);
    }
    return r;
  };

  const client = (r: ResolvedModel): BaseChatModel => {
    const key = clientKey(r);
    let model = clients.get(key);
    if (!model) {
      model = createModel(r);
      clients.set(key, model);
    }
    return model;
  };

  const stageModel = (node: GraphNode): StageModel => {
    const r = resolve(node);
    const target = targetOf(r);
    const wrapError = (error: unknown) => describeProviderError(error, target);
    const price = priceOf(options.config.config, r.model);
    if (cassette) {
      // Replaying makes no client at all: nothing can reach a provider.
      const inner = cassette.mode === 'record' ? client(r) : undefined;
      const name = r.model ?? inner?.getName() ?? 'model';
      const model = new CassetteChatModel(cassette, inner, { stage: node.id, model: name, provider: r.provider.name });
      setModelProvider(model, r.provider.kind);
      return { model, name, wrapError, price, provider: r.provider.kind };
    }
    const model = client(r);
    // Every call of it reports the API (llm.response's provider), whoever makes it: stages, phases, conferences.
    setModelProvider(model, r.provider.kind);
    return { model, name: r.model ?? model.getName(), wrapError, price, provider: r.provider.kind };
  };

  const withCassette = (nodeId: string, tools: readonly StructuredToolInterface[]) => (cassette ? cassetteTools(cassette, nodeId, tools) : [...tools]);

  const agentTools = (request: CodergenRequest | ConversationStart): StageTools | undefined => {
    if (resolve(request.node).backend !== 'agent') return undefined;
    const kit = agentKit(request, agentSettings(options.config, request.node), options.tools ?? [], apiKeyVariables(options.config));
    if (!cassette) return kit;
    return { ...kit, tools: withCassette(request.node.id, kit.tools), ...(kit.guard ? { guard: cassetteGuard(cassette, request.node.id, kit.guard) } : {}) };
  };

  const langchain = createLangChainBackend({
    model: stageModel,
    tools: agentTools,
    sessions,
    ...(options.system !== undefined ? { system: options.system } : {}),
    ...(options.phases ? { phases: options.phases } : {}),
  });

  const cliSettings = cliAgentSettings(options.config);
  const cli = createCliAgentBackend({
    command: cliSettings.command ?? [],
    timeoutMs: cliSettings.timeoutMs,
    // A CLI agent keeps no session here: `full` gets the most detailed preamble instead.
    preamble: (request: CodergenRequest | ConversationStart) => buildPreamble({ mode: request.fidelity.mode === 'full' ? 'summary:high' : request.fidelity.mode, run: request.run, context: request.context, nodeId: request.node.id }),
  });

  const cannotRun = (node: GraphNode, graph: Graph): string | undefined => {
    try {
      const r = resolve(node);
      const phased = phasedNodeProblem(node, r.backend);
      if (phased) return phased;
      if (cassette && r.backend === 'cli') return `node ${node.id} runs on the cli backend, whose model traffic a cassette cannot hold: record and replay it on the chat or agent backend (--backend)`;
      if (r.backend === 'cli') return cli.cannotRun?.(node, graph);
      if (r.backend === 'agent') return workspaceProblem(node.id, agentSettings(options.config, node), options.config);
      return undefined;
    } catch (error) {
      if (error instanceof ModelConfigError) return error.message;
      throw error;
    }
  };

  // A role answers with its own model: the node as it would be with llm_model set to the role's (one per node and role).
  const roleNodes = new WeakMap<GraphNode, Map<string, GraphNode>>();
  const roleNode = (node: GraphNode, role: ConferenceRole): GraphNode => {
    if (!role.model) return node;
    let byRole = roleNodes.get(node);
    if (!byRole) roleNodes.set(node, (byRole = new Map()));
    let synthetic = byRole.get(role.name);
    if (!synthetic) byRole.set(role.name, (synthetic = Object.assign(Object.create(Object.getPrototypeOf(node) as object) as GraphNode, node, { attributes: { ...node.attributes, llm_model: role.model } })));
    return synthetic;
  };
  const conferenceProblem = (node: GraphNode): string | undefined => {
    try {
      resolve(node);
      for (const role of conferenceRoles(options.config, conferenceSettings(node).roles, node)) {
        try {
          resolve(roleNode(node, role));
        } catch (error) {
          if (error instanceof ModelConfigError) return `conference node ${node.id}, role ${role.name} (model ${role.model}): ${error.message}`;
          throw error;
        }
      }
      configuredTemplates(options.config);
      return workspaceProblem(node.id, agentSettings(options.config, node), options.config);
    } catch (error) {
      if (isOrchestraError(error)) return error.message;
      throw error;
    }
  };
  const conference = createConferenceBackend({
    config: options.config,
    chiefModel: stageModel,
    roleModel: (node, role) => stageModel(roleNode(node, role)),
    scrubEnv: apiKeyVariables(options.config),
    cannotRun: conferenceProblem,
    ...(cassette
      ? { wrapTools: (node: GraphNode, tools: StructuredToolInterface[]) => withCassette(node.id, tools), wrapGuard: (node: GraphNode, guard: ToolCallGuard) => cassetteGuard(cassette, node.id, guard) }
      : {}),
  });

  return {
    resolve,
    cannotRun,
    conference,
    run: (request) => (resolve(request.node).backend === 'cli' ? cli.run(request) : inRun(request.run.id, () => langchain.run(request))),
    startConversation: (request) => {
      if (resolve(request.node).backend === 'cli') return cli.startConversation(request);
      if (!cassette) return langchain.startConversation(request);
      const started = inRun(request.run.id, () => langchain.startConversation(request));
      return started instanceof Promise ? started.then((c) => conversationInRun(request.run.id, c)) : conversationInRun(request.run.id, started);
    },
  };
}
