import type { ServerResponse } from 'node:http';
import { completionChunks, firstChunk, usageChunk } from './chunks.js';
import { type CompletionContext, chatCompletion, wireToolCalls } from './completion.js';
import { openAIErrorBody } from './error-body.js';
import { sendJson, sleep, startEventStream, writeEvent } from './http-io.js';
import type { MutableRecordedRequest } from './request-record.js';
import type { ReplyStep, ScriptStep, ToolCallsStep } from './types.js';
import { usageFor } from './usage.js';

/** One chat-completion request being answered. */
export interface Exchange {
  res: ServerResponse;
  /** The request's log entry; its outcome is set here. */
  record: MutableRecordedRequest;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
  /** The request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Model reported when neither the step nor the request names one. */
  defaultModel: string;
  /** Headers sent with every answer (e.g. `x-request-id`). */
  headers: Record<string, string>;
}

function contextFor(exchange: Exchange, step: ReplyStep | ToolCallsStep): CompletionContext {
  const { record } = exchange;
  const argumentTexts = step.kind === 'tool_calls' ? wireToolCalls(step, record.index).map((call) => call.function.arguments) : [];
  return {
    id: `chatcmpl-scripted-${record.index}`,
    created: Math.floor(Date.now() / 1000),
    model: step.model ?? record.model ?? exchange.defaultModel,
    usage: usageFor(step, record.messages, argumentTexts),
    requestIndex: record.index,
  };
}

async function streamAnswer(exchange: Exchange, step: ReplyStep | ToolCallsStep, context: CompletionContext): Promise<void> {
  const { res, signal, includeUsage } = exchange;
  startEventStream(res, exchange.headers);
  const chunks = completionChunks(step, context, includeUsage);
  for (const [position, chunk] of chunks.entries()) {
    if (position > 0 && !(await sleep(step.chunkDelayMs, signal))) return;
    if (signal.aborted) return;
    await writeEvent(res, JSON.stringify(chunk));
  }
  if (includeUsage) await writeEvent(res, JSON.stringify(usageChunk(context)));
  await writeEvent(res, '[DONE]');
  if (!signal.aborted) res.end();
}

/**
 * Carries out a step for a chat-completion request: waits its `delayMs`, then
 * answers (JSON or a stream), fails or drops the connection, and records the
 * outcome. Returns quietly when the client disconnects or the server closes.
 */
export async function answerStep(exchange: Exchange, step: ScriptStep): Promise<void> {
  const { res, record, signal } = exchange;
  record.step = step;
  if (!(await sleep(step.delayMs, signal))) return;
  switch (step.kind) {
    case 'error': {
      record.outcome = `error ${step.status}`;
      const headers: Record<string, string> = step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
      sendJson(res, step.status, openAIErrorBody(step.status, step), { ...exchange.headers, ...headers });
      return;
    }
    case 'drop': {
      if (step.when === 'mid-stream' && record.stream) {
        record.outcome = 'dropped mid-stream';
        startEventStream(res, exchange.headers);
        const context: CompletionContext = {
          id: `chatcmpl-scripted-${record.index}`,
          created: Math.floor(Date.now() / 1000),
          model: record.model ?? exchange.defaultModel,
          usage: { promptTokens: 1, completionTokens: 1 },
          requestIndex: record.index,
        };
        await writeEvent(res, JSON.stringify(firstChunk(context, step.partialText ?? '', exchange.includeUsage)));
      } else {
        record.outcome = 'dropped before-response';
      }
      res.destroy();
      return;
    }
    case 'reply':
    case 'tool_calls': {
      record.outcome = step.kind;
      const context = contextFor(exchange, step);
      if (record.stream) await streamAnswer(exchange, step, context);
      else sendJson(res, 200, chatCompletion(step, context), exchange.headers);
      return;
    }
    default: {
      record.outcome = 'error 500';
      const kind = (step as { kind?: unknown }).kind;
      sendJson(res, 500, openAIErrorBody(500, { message: `scripted server: unknown step kind ${JSON.stringify(kind)} for request #${record.index}` }), exchange.headers);
    }
  }
}
