import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ResolvedModel } from '../config/index.js';
import { createChatAnthropic } from './chat-anthropic.js';
import { createChatGemini } from './chat-gemini.js';
import { createChatOllama } from './chat-ollama.js';
import { createChatOpenAI } from './chat-openai.js';

/** The LangChain chat model for a resolved model, by the API its provider speaks: `ChatOpenAI`, `ChatAnthropic`, `ChatGoogleGenerativeAI` or `ChatOllama` (the last three loaded on their first call). */
export function createChatModel(resolved: ResolvedModel): BaseChatModel {
  switch (resolved.provider.kind) {
    case 'anthropic':
      return createChatAnthropic(resolved);
    case 'gemini':
      return createChatGemini(resolved);
    case 'ollama':
      return createChatOllama(resolved);
    case 'openai':
      return createChatOpenAI(resolved);
  }
}
