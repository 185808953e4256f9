import type { ServerResponse } from 'node:http';
import { sendJson, sleep, startEventStream, writeEvent } from '../openai-server/http-io.js';
import type { ReplyStep, ScriptStep, ToolCallsStep } from '../openai-server/types.js';
import { usageFor } from '../openai-server/usage.js';
import { geminiErrorBody, retryInfo } from './error-body.js';
import { type MutableGeminiRecord, countedText } from './request-record.js';
import { type ResponseContext, argumentTexts, responseChunk, responseObject, streamChunks } from './response.js';

/** One generate request being answered. */
export interface GeminiExchange {
  res: ServerResponse;
  /** The request's log entry; its outcome is set here. */
  record: MutableGeminiRecord;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
  /** Model reported when neither the step nor the request names one. */
  defaultModel: string;
}

/**
 * What the chunks (or the response) of an answer share. The usage is the
 * step's own, or deterministic word counts — input = words of the system
 * instruction and of every content's text and function responses, output =
 * words of the text plus words of the function-call argument JSON (each at
 * least 1), as on the OpenAI server.
 */
function contextFor(exchange: GeminiExchange, step: ScriptStep): ResponseContext {
  const { record } = exchange;
  const counted = [
    { role: 'system', content: record.system ?? '' },
    ...(record.contents ?? []).map((content) => ({ role: String(content?.role), content: countedText(content) })),
  ];
  const model = step.kind === 'reply' || step.kind === 'tool_calls' ? step.model : undefined;
  return {
    responseId: `scripted_${record.index}`,
    model: model ?? record.model ?? exchange.defaultModel,
    usage: usageFor(step, counted, step.kind === 'tool_calls' ? argumentTexts(step) : []),
  };
}

/** Writes chunks as `data: <json>` events; stops (returning `false`) when the client goes away. */
async function writeChunks(exchange: GeminiExchange, chunks: readonly Record<string, unknown>[], chunkDelayMs?: number): Promise<boolean> {
  const { res, signal } = exchange;
  for (const [position, chunk] of chunks.entries()) {
    if (position > 0 && !(await sleep(chunkDelayMs, signal))) return false;
    if (signal.aborted) return false;
    await writeEvent(res, JSON.stringify(chunk));
  }
  return true;
}

async function streamAnswer(exchange: GeminiExchange, step: ReplyStep | ToolCallsStep, context: ResponseContext): Promise<void> {
  const chunks = streamChunks(step, context);
  if (!exchange.record.sse) {
    // Without `alt=sse` the Gemini API streams one JSON array of the chunks.
    sendJson(exchange.res, 200, chunks);
    return;
  }
  startEventStream(exchange.res);
  if ((await writeChunks(exchange, chunks, step.chunkDelayMs)) && !exchange.signal.aborted) exchange.res.end();
}

/**
 * Carries out a step for a generate request: waits its `delayMs`, then
 * answers (a response, or its chunks), fails with a Google-shaped error, or
 * drops the connection, and records the outcome. Returns quietly when the
 * client disconnects or the server closes.
 */
export async function answerGeminiStep(exchange: GeminiExchange, step: ScriptStep): Promise<void> {
  const { res, record, signal } = exchange;
  record.step = step;
  if (!(await sleep(step.delayMs, signal))) return;
  switch (step.kind) {
    case 'error': {
      record.outcome = `error ${step.status}`;
      const retryAfter = step.retryAfterSeconds;
      const body = geminiErrorBody(step.status, { ...step, ...(retryAfter === undefined ? {} : { details: [retryInfo(retryAfter)] }) });
      // As the Gemini API words it, the wait also ends the default message.
      if (retryAfter !== undefined && step.message === undefined) body.error.message += ` Please retry in ${retryAfter}s.`;
      sendJson(res, step.status, body, retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) });
      return;
    }
    case 'drop': {
      if (step.when === 'mid-stream' && record.stream && record.sse) {
        record.outcome = 'dropped mid-stream';
        startEventStream(res);
        const partial = step.partialText ?? '';
        if (partial !== '') await writeChunks(exchange, [responseChunk(contextFor(exchange, step), [{ text: partial }])]);
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
      else sendJson(res, 200, responseObject(step, context));
      return;
    }
    default: {
      record.outcome = 'error 500';
      const kind = (step as { kind?: unknown }).kind;
      sendJson(res, 500, geminiErrorBody(500, { message: `scripted server: unknown step kind ${JSON.stringify(kind)} for request #${record.index}` }));
    }
  }
}
