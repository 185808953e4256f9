import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ResolvedModel } from '../config/index.js';
import { DeferredChatModel } from './deferred-chat-model.js';

/**
 * The `ChatOllama` client (`@langchain/ollama`, loaded on the first call)
 * for a resolved model: its base URL (`OLLAMA_HOST`) and headers (a key,
 * for an Ollama behind a proxy, as a bearer token), the token limit
 * (`num_predict`) and temperature when set, and thinking turned on by any
 * reasoning effort (Ollama's only reasoning control).
 */
export function createChatOllama(resolved: ResolvedModel): BaseChatModel {
  const { provider } = resolved;
  const headers = { ...provider.headers, ...(provider.apiKey ? { Authorization: `Bearer ${provider.apiKey}` } : {}) };
  const model = new DeferredChatModel('ollama', async () => {
    const { ChatOllama } = await import('@langchain/ollama');
    return new ChatOllama({
      model: resolved.model ?? '',
      baseUrl: provider.baseUrl,
      streaming: true,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(resolved.maxTokens !== undefined ? { numPredict: resolved.maxTokens } : {}),
      ...(resolved.temperature !== undefined ? { temperature: resolved.temperature } : {}),
      ...(resolved.reasoningEffort ? { think: true } : {}),
    });
  });
  return model as unknown as BaseChatModel;
}
