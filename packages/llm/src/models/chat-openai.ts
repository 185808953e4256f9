import { ChatOpenAI } from '@langchain/openai';
import type { ResolvedModel } from '../config/index.js';

/** Per-request timeout when the provider sets none. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10 * 60_000;

/** What the client sends as a key to a server that needs none (the OpenAI client insists on one). */
export const NO_KEY = 'no-key-needed';

/**
 * `ChatOpenAI` kept on the Chat Completions API. LangChain sends some model
 * ids (`…codex…`, `gpt-5.x-pro`, ...) to OpenAI's Responses API, which
 * OpenAI-compatible servers do not offer: for any endpoint but OpenAI's own,
 * orchestra stays on `/chat/completions`, which every such server speaks.
 */
export class ChatCompletionsOpenAI extends ChatOpenAI {
  protected override _useResponsesApi(): boolean {
    return false;
  }
}

function isOpenAI(baseUrl: string): boolean {
  try {
    return new URL(baseUrl).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/**
 * The `ChatOpenAI` client for a resolved model: its base URL, key and headers,
 * no retries of its own (the engine retries under the node's retry policy,
 * honouring `Retry-After`), usage reported on streamed replies, and the
 * reasoning effort, temperature and token limit only when set. A reasoning
 * effort that is set is sent for every model (LangChain alone would drop it
 * for ids it does not know to reason, such as a local server's).
 */
export function createChatOpenAI(resolved: ResolvedModel): ChatOpenAI {
  const { provider } = resolved;
  const effort = resolved.reasoningEffort;
  const Client = isOpenAI(provider.baseUrl) ? ChatOpenAI : ChatCompletionsOpenAI;
  return new Client({
    model: resolved.model ?? '',
    apiKey: provider.apiKey ?? NO_KEY,
    configuration: { baseURL: provider.baseUrl, ...(Object.keys(provider.headers).length ? { defaultHeaders: provider.headers } : {}) },
    maxRetries: 0,
    timeout: provider.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    // Not `streaming: true`: with it `invoke` estimates tokens with tiktoken, which downloads its tables. We call `stream`.
    streamUsage: true,
    ...(resolved.temperature !== undefined ? { temperature: resolved.temperature } : {}),
    ...(resolved.maxTokens !== undefined ? { maxTokens: resolved.maxTokens } : {}),
    ...(effort ? { reasoning: { effort }, modelKwargs: { reasoning_effort: effort } } : {}),
  });
}
