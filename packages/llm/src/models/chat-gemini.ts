import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { ResolvedModel } from '../config/index.js';
import { DeferredChatModel } from './deferred-chat-model.js';

/** Tokens of thinking per reasoning effort (Gemini's reasoning control). */
const THINKING_BUDGET = { low: 1024, medium: 4096, high: 16_384 } as const;

/**
 * The messages with every system message merged into one, first: Gemini
 * takes one system instruction, and LangChain's client refuses a system
 * message anywhere but first (a stage's preamble and a phase's
 * instructions are two).
 */
export function oneSystemMessage(messages: BaseMessage[]): BaseMessage[] {
  const systems = messages.filter((m) => m.getType() === 'system');
  if (systems.length === 0 || (systems.length === 1 && messages[0] === systems[0])) return messages;
  const text = systems.map((m) => (typeof m.content === 'string' ? m.content : m.text)).join('\n\n');
  return [new SystemMessage(text), ...messages.filter((m) => m.getType() !== 'system')];
}

/** What {@link guardStreamResponses} reaches inside the client. */
type StreamingClient = { generateContentStream: (...args: unknown[]) => Promise<{ response?: Promise<unknown> }> };

/**
 * The Gemini SDK's `generateContentStream` gives, besides the stream, a
 * `response` promise LangChain never awaits: when a stream breaks it rejects
 * with no handler, and an unhandled rejection ends the process. The stream
 * itself reports the failure; the promise's rejection is dropped.
 */
function guardStreamResponses(chat: object): void {
  const client = (chat as { client?: Partial<StreamingClient> }).client;
  const original = client?.generateContentStream;
  if (!client || typeof original !== 'function') return;
  client.generateContentStream = async (...args: unknown[]) => {
    const result = await original.apply(client, args);
    result.response?.catch(() => {});
    return result;
  };
}

/**
 * The `ChatGoogleGenerativeAI` client (`@langchain/google-genai`, loaded on
 * the first call) for a resolved model: its base URL, key and headers, no
 * retries of its own, usage on streamed replies, the token limit and
 * temperature when set, and a reasoning effort as a thinking budget (low
 * 1,024, medium 4,096, high 16,384 tokens).
 */
export function createChatGemini(resolved: ResolvedModel): BaseChatModel {
  const { provider } = resolved;
  const effort = resolved.reasoningEffort;
  const model = new DeferredChatModel('gemini', async () => {
    const { ChatGoogleGenerativeAI } = await import('@langchain/google-genai');
    const chat = new ChatGoogleGenerativeAI({
      model: resolved.model ?? '',
      apiKey: provider.apiKey ?? 'no-key-needed',
      baseUrl: provider.baseUrl,
      maxRetries: 0,
      streamUsage: true,
      ...(Object.keys(provider.headers).length ? { customHeaders: provider.headers } : {}),
      ...(resolved.maxTokens !== undefined ? { maxOutputTokens: resolved.maxTokens } : {}),
      ...(resolved.temperature !== undefined ? { temperature: resolved.temperature } : {}),
      ...(effort ? { thinkingConfig: { thinkingBudget: THINKING_BUDGET[effort] } } : {}),
    });
    guardStreamResponses(chat);
    return chat;
  }, oneSystemMessage);
  return model as unknown as BaseChatModel;
}
