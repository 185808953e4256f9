import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ConversationMessage } from '@orchestra/core';

/** A conversation's saved messages (human and agent text) as LangChain messages. */
export function toLangChainMessages(messages: readonly ConversationMessage[]): BaseMessage[] {
  return messages.map((m) => (m.role === 'human' ? new HumanMessage(m.text) : new AIMessage(m.text)));
}
