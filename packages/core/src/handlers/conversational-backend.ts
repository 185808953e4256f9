import type { GraphNode } from '../graph/model.js';
import type { RunContext } from '../engine/run-context.js';

/** One message of a conversation: the human's (the composed prompt, then each reply) or the agent's. */
export interface ConversationMessage {
  role: 'human' | 'agent';
  text: string;
}

/** What a backend gets when an interactive node opens a conversation. */
export interface ConversationStart {
  node: GraphNode;
  /** The node's composed prompt (the first human message; sent with {@link Conversation.send}). */
  prompt: string;
  context: RunContext;
  signal: AbortSignal;
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
  /** Releases what the conversation holds; called once the node is done with it. */
  close?(): void | Promise<void>;
}

/**
 * Holds multi-turn conversations for interactive nodes: the counterpart of
 * {@link CodergenBackend}'s single-shot `run`. A backend may implement both.
 * The coming `@orchestra/llm` will provide LangChain-backed implementations; core ships the
 * simulation.
 */
export interface ConversationalBackend {
  startConversation(request: ConversationStart): Conversation | Promise<Conversation>;
}

/** Whether a backend can hold conversations. */
export function isConversational(backend: unknown): backend is ConversationalBackend {
  return typeof (backend as Partial<ConversationalBackend> | undefined)?.startConversation === 'function';
}
