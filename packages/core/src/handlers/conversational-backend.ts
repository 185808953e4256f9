import type { Graph, GraphNode } from '../graph/model.js';
import type { ProcessLedger, RunView } from '../engine/handler.js';
import type { RunContext } from '../engine/run-context.js';
import type { JsonValue, Outcome } from '../engine/outcome.js';
import type { LlmReporter } from './codergen-backend.js';
import type { Fidelity } from './fidelity.js';
import type { StageStore } from '../engine/store/run-store.js';

/** One message of a conversation: the human's (the composed prompt, then each reply) or the agent's. */
export interface ConversationMessage {
  role: 'human' | 'agent';
  text: string;
}

/** What a backend gets when an interactive node opens a conversation. */
export interface ConversationStart {
  node: GraphNode;
  /** The pipeline (graph-level settings such as `tool_hooks.pre`). */
  graph: Graph;
  /** The node's composed prompt (the first human message; sent with {@link Conversation.send}). */
  prompt: string;
  context: RunContext;
  signal: AbortSignal;
  /** The node's stage: files the backend keeps (a transcript, a preamble). */
  stage: StageStore;
  /** A real directory holding the stage's files (`<run>/<node id>` with the file store), for what needs a path. */
  stageDir: string;
  /** Where commands run: the directory orchestra was started from. */
  workdir: string;
  /** The run the stage belongs to (for a context preamble). */
  run: RunView;
  /** How much of the run the conversation starts with (spec §5.4). */
  fidelity: Fidelity;
  /**
   * Where streaming pieces, finished calls and tool calls go, for every
   * message of the conversation (the handler knows which turn it is).
   */
  report: LlmReporter;
  /**
   * Where the stage records the process groups it starts (agent commands,
   * CLI agents, tool hooks) before they run, so a resumed run stops what a
   * killed one left running. Absent outside a run.
   */
  processes?: ProcessLedger;
}

/**
 * One conversation of an interactive node (`agent.mode="interactive"`): the
 * handler sends the prompt, then each human reply, and shows every agent
 * reply to the human.
 */
export interface Conversation {
  /** Sends the next human message and resolves with the agent's reply. */
  send(message: string, options: { signal: AbortSignal }): Promise<string>;
  /**
   * Loads the messages of a conversation that a stopped process had (a
   * resumed run), without calling the model, so that the next `send`
   * continues it. A backend without `restore` gets the human messages sent
   * again instead (the model is called again for every past turn, and its
   * replies may differ); the handler says so.
   */
  restore?(messages: readonly ConversationMessage[]): void | Promise<void>;
  /**
   * Releases what the conversation holds; called once the node is done with
   * it. `ended`: the conversation ended with a command (`/done`, `/approve`,
   * `/reject`), so a backend that keeps sessions for `full` fidelity may keep
   * it; otherwise (an error, a stop) it was cut short.
   */
  close?(ended: boolean): void | Promise<void>;
  /**
   * True once the agent has said it has what it needs (a phased node's model
   * called `ready_to_summarize`): the handler ends the conversation as if
   * the human had answered `/done`. Read after each `send`.
   */
  readonly ready?: boolean;
  /** Most agent replies before the conversation ends by itself (as with `/done`); no limit when absent. */
  readonly maxTurns?: number;
  /**
   * Turns the ended conversation into the node's outcome (a phased node:
   * Summarize, then Serialize). Called when it ended with `/done` or
   * `/approve` (or `ready`); its outcome replaces the plain success, keeping
   * the conversation's context updates unless it sets the same keys.
   * `progress` / `saveProgress` keep how far it got, so a resumed node
   * repeats no finished step.
   */
  finish?(options: ConversationFinish): Promise<Outcome>;
}

/** What {@link Conversation.finish} gets. */
export interface ConversationFinish {
  signal: AbortSignal;
  /** What an earlier `finish` of this visit saved; undefined at first. */
  progress: JsonValue | undefined;
  saveProgress: (data: JsonValue | undefined) => Promise<void>;
}

/**
 * Holds multi-turn conversations for interactive nodes: the counterpart of
 * {@link CodergenBackend}'s single-shot `run`. A backend may implement both.
 * `@orchestra/llm` provides LangChain-backed implementations; core ships the
 * simulation.
 */
export interface ConversationalBackend {
  startConversation(request: ConversationStart): Conversation | Promise<Conversation>;
  /** Why this backend cannot hold `node`'s conversation (see `CodergenBackend.cannotRun`); `undefined` when it can. */
  cannotRun?(node: GraphNode, graph: Graph): string | undefined;
}

/** Whether a backend can hold conversations. */
export function isConversational(backend: unknown): backend is ConversationalBackend {
  return typeof (backend as Partial<ConversationalBackend> | undefined)?.startConversation === 'function';
}
