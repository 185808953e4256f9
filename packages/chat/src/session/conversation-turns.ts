import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';

/** The line before the messages a person sent while a run was active, when they reach the agent. */
export const QUEUED_MESSAGES_HEADER = '(Sent while the run was active:)';

/** One message of the conversation as the person saw it: theirs, or the agent's reply. */
export interface ConversationTurn {
  who: 'person' | 'agent';
  text: string;
}

/** The text parts of a message's content. */
export function textOf(message: BaseMessage): string {
  return typeof message.content === 'string' ? message.content : message.content.map((p) => ('text' in p && typeof p.text === 'string' ? p.text : '')).join('');
}

/**
 * The person's messages and the agent's replies in a session's transcript,
 * oldest first: what the chat showed as `you ›` and `orchestra ›`. Tool
 * calls and their results (runs, approvals) are left out, and so are
 * messages without text; messages queued during a run are shown as the
 * person typed them.
 */
export function conversationTurns(messages: readonly BaseMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const message of messages) {
    const who = message instanceof HumanMessage ? 'person' : message instanceof AIMessage ? 'agent' : undefined;
    if (!who) continue;
    let text = textOf(message);
    if (who === 'person' && text.startsWith(`${QUEUED_MESSAGES_HEADER}\n`)) text = text.slice(QUEUED_MESSAGES_HEADER.length + 1);
    if (text.trim()) turns.push({ who, text });
  }
  return turns;
}
