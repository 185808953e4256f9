import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type {
  CodergenBackend,
  CodergenRequest,
  Conversation,
  ConversationalBackend,
  ConversationMessage,
  ConversationStart,
  Graph,
  GraphNode,
  Outcome,
} from '@orchestra/core';
import { isPhasedNode, phaseSpec, phasedNodeProblem, type PhaseRegistry } from '../phases/phase-spec.js';
import { runPhasedStage } from '../phases/phased-stage.js';
import { PhasedConversation } from '../phases/phased-conversation.js';
import { keepSession, startSession, type SessionStart } from '../fidelity/stage-session.js';
import { ThreadSessions } from '../fidelity/thread-sessions.js';
import { toLangChainMessages } from '../messages/conversation-messages.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';
import { runAgentLoop } from './agent-loop.js';
import type { ChatRunnable } from './call-model.js';
import { setModelProvider } from './model-provider.js';
import type { ModelPrice } from '../config/prices.js';

/** The model a stage talks to. */
export interface StageModel {
  model: BaseChatModel;
  /** Its name, for events when the provider does not say. */
  name: string;
  /** Turns a provider's error into the one the stage fails with (a clear message, retryability). */
  wrapError?: (error: unknown) => unknown;
  /** What its tokens cost (`orchestra.yaml` `prices`), when known: calls' usage then carries their cost. */
  price?: ModelPrice | undefined;
  /** The API it speaks (`openai`, `anthropic`, `gemini`, `ollama`), when known: its calls' `llm.response` events name it (and traces, as `gen_ai.provider.name`). */
  provider?: string;
}

/** An agent stage's tools. */
export interface StageTools {
  tools: readonly StructuredToolInterface[];
  /** Most model calls per stage (or per conversation turn). */
  maxTurns: number;
  /** Runs around each tool call (the `tool_hooks`). */
  guard?: ToolCallGuard;
}

/** Options of {@link createLangChainBackend}. */
export interface LangChainBackendOptions {
  /** The model for a stage. */
  model: (node: GraphNode) => StageModel;
  /** The tools of an agent stage; none (or no function) makes every stage a single model call. */
  tools?: (request: CodergenRequest | ConversationStart) => StageTools | undefined;
  /** Sessions kept for `full` fidelity; share one between backends that should continue each other's threads. */
  sessions?: ThreadSessions;
  /** A system prompt before each fresh session's preamble. */
  system?: string;
  /** Why a stage cannot run (checked before the run starts). */
  cannotRun?: (node: GraphNode, graph: Graph) => string | undefined;
  /** Zod schemas and validators phased nodes may name (`output.schema="zod:<name>"`, `output.validators`). */
  phases?: PhaseRegistry;
}

/** The default system prompt: what every stage is. */
export const DEFAULT_SYSTEM_PROMPT =
  'You are one stage of an automated multi-stage pipeline. Do the task you are given and answer with the result itself; later stages read your answer.';

interface Prepared {
  stage: StageModel;
  bound: ChatRunnable;
  kit: StageTools | undefined;
  start: SessionStart;
}

/** The stage's model, its provider recorded on it (for `callModel`, wherever it is called from). */
function stageModelOf(options: Pick<LangChainBackendOptions, 'model'>, node: GraphNode): StageModel {
  const stage = options.model(node);
  if (stage.provider) setModelProvider(stage.model, stage.provider);
  return stage;
}

function prepare(options: LangChainBackendOptions, sessions: ThreadSessions, request: CodergenRequest | ConversationStart): Prepared {
  const stage = stageModelOf(options, request.node);
  const kit = options.tools?.(request);
  const bound = kit && kit.tools.length > 0 ? bindTools(stage.model, kit.tools) : stage.model;
  const start = startSession(request, sessions, options.system ?? DEFAULT_SYSTEM_PROMPT);
  return { stage, bound, kit, start };
}

function bindTools(model: BaseChatModel, tools: readonly StructuredToolInterface[]): ChatRunnable {
  if (typeof model.bindTools !== 'function') throw new Error(`the model ${model.getName()} cannot call tools (it has no bindTools); use the chat backend for it`);
  return model.bindTools([...tools]) as ChatRunnable;
}

/** One model exchange of a stage: the agent loop (a single call without tools), with the stage's error wrapping. */
async function exchange(prepared: Prepared, request: CodergenRequest | ConversationStart, messages: BaseMessage[], signal: AbortSignal): Promise<string> {
  const { stage, bound, kit } = prepared;
  try {
    const result = await runAgentLoop(messages, {
      nodeId: request.node.id,
      model: bound,
      modelName: stage.name,
      price: stage.price,
      tools: new Map((kit?.tools ?? []).map((t) => [t.name, t])),
      maxTurns: kit?.maxTurns ?? 1,
      ...(kit?.guard ? { guard: kit.guard } : {}),
      stageDir: request.stageDir,
      signal,
      report: request.report,
    });
    return result.text;
  } catch (error) {
    if (signal.aborted) throw error;
    throw stage.wrapError ? stage.wrapError(error) : error;
  }
}

/** A conversation kept as LangChain messages. */
class LangChainConversation implements Conversation {
  private messages: BaseMessage[];

  constructor(
    private readonly prepared: Prepared,
    private readonly request: ConversationStart,
    private readonly sessions: ThreadSessions,
  ) {
    this.messages = [...prepared.start.messages];
  }

  async send(message: string, { signal }: { signal: AbortSignal }): Promise<string> {
    const messages = [...this.messages, new HumanMessage(message)];
    const text = await exchange(this.prepared, this.request, messages, signal);
    this.messages = messages; // only a complete exchange joins the history
    return text;
  }

  restore(saved: readonly ConversationMessage[]): void {
    this.messages = [...this.prepared.start.messages, ...toLangChainMessages(saved)];
  }

  close(ended: boolean): void {
    if (ended) keepSession(this.request, this.sessions, this.messages);
  }
}

/**
 * A backend over LangChain chat models: every LLM stage (single-shot and
 * interactive) sends its prompt to the stage's model, streaming the reply.
 * With tools for a stage it runs the agent loop (tool calls until a final
 * answer). Sessions follow the stage's fidelity (spec §5.4): `full` continues
 * its thread's earlier session, other modes start fresh with a preamble.
 */
export function createLangChainBackend(options: LangChainBackendOptions): CodergenBackend & ConversationalBackend {
  const sessions = options.sessions ?? new ThreadSessions();
  return {
    async run(request) {
      if (isPhasedNode(request.node)) return runPhased(options, sessions, request);
      const prepared = prepare(options, sessions, request);
      const messages = [...prepared.start.messages, new HumanMessage(request.prompt)];
      const text = await exchange(prepared, request, messages, request.signal);
      keepSession(request, sessions, messages);
      return text;
    },
    startConversation(request) {
      if (isPhasedNode(request.node)) return startPhased(options, sessions, request);
      return new LangChainConversation(prepare(options, sessions, request), request, sessions);
    },
    cannotRun: (node, graph) => phasedNodeProblem(node) ?? options.cannotRun?.(node, graph),
  };
}

/** An interactive stage with an output schema: Discuss with the human, then Summarize and Serialize (see `PhasedConversation`). */
function startPhased(options: LangChainBackendOptions, sessions: ThreadSessions, request: ConversationStart): PhasedConversation {
  let spec;
  try {
    spec = phaseSpec(request.node, request.run.sourceFile, request.workdir, options.phases, true);
  } catch (error) {
    throw Object.assign(error as Error, { retryable: false });
  }
  const kit = options.tools?.(request);
  const start = startSession(request, sessions, options.system ?? DEFAULT_SYSTEM_PROMPT);
  return new PhasedConversation(request, {
    spec,
    model: options.model,
    start: start.messages,
    ...(kit ? { tools: kit.tools } : {}),
    ...(kit?.guard ? { guard: kit.guard } : {}),
  });
}

/** A stage with an output schema: Discuss, Summarize, Serialize (see `runPhasedStage`). */
async function runPhased(options: LangChainBackendOptions, sessions: ThreadSessions, request: CodergenRequest): Promise<Outcome> {
  let spec;
  try {
    spec = phaseSpec(request.node, request.run.sourceFile, request.workdir, options.phases);
  } catch (error) {
    throw Object.assign(error as Error, { retryable: false });
  }
  const kit = options.tools?.(request);
  const start = startSession(request, sessions, options.system ?? DEFAULT_SYSTEM_PROMPT);
  return runPhasedStage(request, {
    spec,
    model: options.model,
    start: start.messages,
    ...(kit ? { tools: kit.tools } : {}),
    ...(kit?.guard ? { guard: kit.guard } : {}),
  });
}

/** Options of {@link createChatBackend}. */
export interface ChatBackendOptions {
  /** Any LangChain chat model (`ChatOpenAI`, `ChatAnthropic`, a fake model in tests), or one per stage. */
  model: BaseChatModel | ((node: GraphNode) => BaseChatModel);
  sessions?: ThreadSessions;
  system?: string;
}

/**
 * The `chat` backend for library users: each stage is one streamed call to
 * `model`; interactive stages hold the conversation as LangChain messages
 * (restored without calling the model on resume).
 */
export function createChatBackend(options: ChatBackendOptions): CodergenBackend & ConversationalBackend {
  const pick = typeof options.model === 'function' ? options.model : () => options.model as BaseChatModel;
  return createLangChainBackend({
    model: (node) => {
      const model = pick(node);
      return { model, name: model.getName() };
    },
    ...(options.sessions ? { sessions: options.sessions } : {}),
    ...(options.system !== undefined ? { system: options.system } : {}),
  });
}
