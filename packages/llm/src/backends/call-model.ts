import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import type { LlmReporter, TokenUsage } from '@orchestra/core';
import type { ModelPrice } from '../config/prices.js';
import { modelProvider } from './model-provider.js';

/** A chat model, possibly with tools bound (what `bindTools` returns). */
export type ChatRunnable = BaseChatModel | Runnable<BaseMessage[], AIMessageChunk>;

/** What one streamed call produced. */
export interface ModelReply {
  message: AIMessageChunk;
  usage?: TokenUsage;
  model: string;
  durationMs: number;
}

function usageOf(chunk: AIMessageChunk, price: ModelPrice | undefined): TokenUsage | undefined {
  const u = chunk.usage_metadata;
  if (!u) return undefined;
  const input = u.input_tokens ?? 0;
  const output = u.output_tokens ?? 0;
  const usage: TokenUsage = { inputTokens: input, outputTokens: output, totalTokens: u.total_tokens ?? input + output };
  if (price) usage.cost = { amount: (input * price.input + output * price.output) / 1_000_000, currency: price.currency };
  return usage;
}

function modelNameOf(chunk: AIMessageChunk, fallback: string): string {
  const meta = chunk.response_metadata as Record<string, unknown> | undefined;
  const name = meta?.model_name ?? meta?.model;
  return typeof name === 'string' && name ? name : fallback;
}

/**
 * Calls a chat model once, streaming: every text piece goes to
 * `report.delta` as it arrives, and when the reply is complete
 * `report.response` gets the model's name, the API it went through (when
 * recorded with `setModelProvider`), the duration and the token usage.
 * Resolves with the whole reply (text and tool calls merged from the chunks).
 */
export async function callModel(
  model: ChatRunnable,
  messages: BaseMessage[],
  options: { signal: AbortSignal; report: LlmReporter; modelName: string; /** What the model's tokens cost (`orchestra.yaml` `prices`), for the call's usage. */ price?: ModelPrice | undefined },
): Promise<ModelReply> {
  const started = performance.now();
  let merged: AIMessageChunk | undefined;
  const stream = await model.stream(messages, { signal: options.signal });
  for await (const chunk of stream) {
    const piece = typeof chunk.content === 'string' ? chunk.content : chunk.text;
    if (piece) options.report.delta(piece);
    merged = merged ? merged.concat(chunk) : chunk;
  }
  const message = merged ?? new AIMessageChunk({ content: '' });
  const durationMs = performance.now() - started;
  const usage = usageOf(message, options.price);
  const model_ = modelNameOf(message, options.modelName);
  const provider = modelProvider(model, message.response_metadata as Record<string, unknown> | undefined);
  options.report.response({ model: model_, ...(provider ? { provider } : {}), durationMs, ...(usage ? { usage } : {}) });
  return { message, model: model_, durationMs, ...(usage ? { usage } : {}) };
}
