import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { ResolvedModel } from '../config/index.js';
import { DEFAULT_REQUEST_TIMEOUT_MS } from './chat-openai.js';
import { DeferredChatModel } from './deferred-chat-model.js';

/** The longest reply when the model settings give none: Anthropic's API requires a limit on every request. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** Tokens of extended thinking per reasoning effort (Anthropic's reasoning control). */
const THINKING_BUDGET = { low: 1024, medium: 4096, high: 16_384 } as const;

/** What a server of Anthropic's API other than Anthropic's own is sent as a key when none is set (the client insists on one). */
const NO_KEY = 'no-key-needed';

/**
 * The `ChatAnthropic` client (`@langchain/anthropic`, loaded on the first
 * call) for a resolved model: its base URL, key and headers, no retries of
 * its own (the engine retries under the node's retry policy, honouring
 * `Retry-After`), usage on streamed replies, the token limit (8192 unless
 * set), the temperature when set, and a reasoning effort as a budget of
 * extended thinking (low 1,024, medium 4,096, high 16,384 tokens, the
 * reply's limit raised above it).
 */
export function createChatAnthropic(resolved: ResolvedModel): BaseChatModel {
  const { provider } = resolved;
  const effort = resolved.reasoningEffort;
  const budget = effort ? THINKING_BUDGET[effort] : undefined;
  const maxTokens = Math.max(resolved.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS, budget !== undefined ? budget + 1024 : 0);
  const model = new DeferredChatModel('anthropic', async () => {
    const { ChatAnthropic } = await import('@langchain/anthropic');
    return new ChatAnthropic({
      model: resolved.model ?? '',
      apiKey: provider.apiKey ?? NO_KEY,
      anthropicApiUrl: provider.baseUrl,
      maxRetries: 0,
      maxTokens,
      streamUsage: true,
      clientOptions: { timeout: provider.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS, ...(Object.keys(provider.headers).length ? { defaultHeaders: provider.headers } : {}) },
      // Extended thinking fixes the temperature at 1: a temperature is sent only without it.
      ...(budget !== undefined ? { thinking: { type: 'enabled', budget_tokens: budget } } : resolved.temperature !== undefined ? { temperature: resolved.temperature } : {}),
    });
  });
  return model as unknown as BaseChatModel;
}
