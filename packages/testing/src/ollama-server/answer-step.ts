import type { ServerResponse } from 'node:http';
import { sendJson, sleep } from '../openai-server/http-io.js';
import type { ReplyStep, ScriptStep, ToolCallsStep } from '../openai-server/types.js';
import { usageFor } from '../openai-server/usage.js';
import { type ChatContext, argumentTexts, chatResponse, streamLine, streamLines } from './chat-response.js';
import { ollamaErrorBody } from './error-body.js';
import { startNdjson, writeLine } from './ndjson.js';
import { type MutableOllamaRecord, messageText } from './request-record.js';

/** One chat request being answered. */
export interface OllamaExchange {
  res: ServerResponse;
  /** The request's log entry; its outcome is set here. */
  record: MutableOllamaRecord;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
  /** Model reported when neither the step nor the request names one. */
  defaultModel: string;
}

/**
 * What the lines (or the response object) of an answer share. The usage is
 * the step's own, or deterministic word counts — input = words of every
 * message's content (system messages and tool results included), output =
 * words of the text plus words of the tool-call argument JSON (each at
 * least 1), as on the OpenAI server.
 */
function contextFor(exchange: OllamaExchange, step: ScriptStep): ChatContext {
  const { record } = exchange;
  const counted = (record.messages ?? []).map((message) => ({ role: String(message?.role), content: messageText(message) }));
  const model = step.kind === 'reply' || step.kind === 'tool_calls' ? step.model : undefined;
  return {
    model: model ?? record.model ?? exchange.defaultModel,
    createdAt: new Date().toISOString(),
    usage: usageFor(step, counted, step.kind === 'tool_calls' ? argumentTexts(step) : []),
  };
}

/** Writes the lines in order; stops (returning `false`) when the client goes away. */
async function writeLines(exchange: OllamaExchange, lines: readonly unknown[], chunkDelayMs?: number): Promise<boolean> {
  const { res, signal } = exchange;
  for (const [position, line] of lines.entries()) {
    if (position > 0 && !(await sleep(chunkDelayMs, signal))) return false;
    if (signal.aborted) return false;
    await writeLine(res, line);
  }
  return true;
}

async function streamAnswer(exchange: OllamaExchange, step: ReplyStep | ToolCallsStep, context: ChatContext): Promise<void> {
  startNdjson(exchange.res);
  if ((await writeLines(exchange, streamLines(step, context), step.chunkDelayMs)) && !exchange.signal.aborted) exchange.res.end();
}

/**
 * Carries out a step for a chat request: waits its `delayMs`, then answers
 * (a response object, or NDJSON lines when the request streams), fails with
 * an Ollama-shaped error, or drops the connection, and records the outcome.
 * Returns quietly when the client disconnects or the server closes.
 */
export async function answerOllamaStep(exchange: OllamaExchange, step: ScriptStep): Promise<void> {
  const { res, record, signal } = exchange;
  record.step = step;
  if (!(await sleep(step.delayMs, signal))) return;
  switch (step.kind) {
    case 'error': {
      record.outcome = `error ${step.status}`;
      const retryAfter: Record<string, string> = step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
      sendJson(res, step.status, ollamaErrorBody(step.status, record.model ?? exchange.defaultModel, step), retryAfter);
      return;
    }
    case 'drop': {
      if (step.when === 'mid-stream' && record.stream) {
        record.outcome = 'dropped mid-stream';
        startNdjson(res);
        await writeLines(exchange, [streamLine(contextFor(exchange, step), { content: step.partialText ?? '' })]);
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
      else sendJson(res, 200, chatResponse(step, context));
      return;
    }
    default: {
      record.outcome = 'error 500';
      const kind = (step as { kind?: unknown }).kind;
      sendJson(res, 500, { error: `scripted server: unknown step kind ${JSON.stringify(kind)} for request #${record.index}` });
    }
  }
}
