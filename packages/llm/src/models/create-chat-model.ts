import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ResolvedModel } from '../config/index.js';
import { createChatAnthropic } from './chat-anthropic.js';
import { createChatOpenAI } from './chat-openai.js';

/** The LangChain chat model for a resolved model, by the API its provider speaks: `ChatOpenAI` or `ChatAnthropic`. */
export function createChatModel(resolved: ResolvedModel): BaseChatModel {
  switch (resolved.provider.kind) {
    case 'anthropic':
      return createChatAnthropic(resolved);
    case 'openai':
      return createChatOpenAI(resolved);
  }
}
