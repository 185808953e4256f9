import type { Question } from '../engine/question.js';

/** The commands that end an interactive node's conversation: `/done` and `/approve` succeed, `/reject` fails. */
export const CONVERSATION_COMMANDS = ['/done', '/approve', '/reject'] as const;
/** A command that ends a conversation: one of `CONVERSATION_COMMANDS`. */
export type ConversationCommand = (typeof CONVERSATION_COMMANDS)[number];

/** `metadata.kind` of the questions an interactive node asks (one per agent message). */
export const CONVERSATION_KIND = 'conversation';

/**
 * A reply that is a command: the command (lower-cased) and any text after it
 * (`/reject too vague` → note `too vague`). Anything else is a message for
 * the agent.
 */
export function parseConversationCommand(text: string): { command: ConversationCommand; note: string } | undefined {
  const match = /^\s*(\/(?:done|approve|reject))(?![\w-])\s*([\s\S]*)$/i.exec(text);
  if (!match) return undefined;
  return { command: (match[1] as string).toLowerCase() as ConversationCommand, note: (match[2] as string).trim() };
}

/** The question for one turn: the agent's message, answered with free text or a command. */
export function conversationQuestion(nodeId: string, agentMessage: string, turn: number, timeoutMs?: number): Question {
  return {
    text: agentMessage,
    type: 'FREEFORM',
    options: [],
    stage: nodeId,
    metadata: { kind: CONVERSATION_KIND, turn, commands: [...CONVERSATION_COMMANDS] },
    ...(timeoutMs ? { timeoutMs } : {}),
  };
}

/** Whether a question is a turn of an interactive node's conversation. */
export function isConversationQuestion(question: Question): boolean {
  return question.metadata.kind === CONVERSATION_KIND;
}
