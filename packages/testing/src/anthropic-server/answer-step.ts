import type { ServerResponse } from 'node:http';
import { sendJson, sleep, startEventStream, writeEvent } from '../openai-server/http-io.js';
import type { ReplyStep, ScriptStep, ToolCallsStep } from '../openai-server/types.js';
import { usageFor } from '../openai-server/usage.js';
import { anthropicErrorBody } from './error-body.js';
import { messageStart, streamEvents, textBlockStart, textDelta, type StreamEvent } from './events.js';
import { type MessageContext, messageObject, scriptedToolUses } from './message.js';
import { type MutableAnthropicRecord, countedText } from './request-record.js';

/** One messages request being answered. */
export interface AnthropicExchange {
  res: ServerResponse;
  /** The request's log entry; its outcome is set here. */
  record: MutableAnthropicRecord;
  /** Aborts when the client disconnects or the server closes. */
  signal: AbortSignal;
  /** Model reported when neither the step nor the request names one. */
  defaultModel: string;
  /** `request-id` of the answer, also in error bodies. */
  requestId: string;
  /** Headers sent with every answer (`request-id`). */
  headers: Record<string, string>;
}

/**
 * What the message object (or the events) of an answer share. The usage is
 * the step's own, or deterministic word counts —
 * input = words of the system prompt and of every message's text and tool
 * results, output = words of the text plus words of the tool-call argument
 * JSON (each at least 1), as on the OpenAI server.
 */
function contextFor(exchange: AnthropicExchange, step: ScriptStep): MessageContext {
  const { record } = exchange;
  const counted = [
    { role: 'system', content: record.system ?? '' },
    ...(record.messages ?? []).map((message) => ({ role: String(message?.role), content: countedText(message) })),
  ];
  const argumentTexts = step.kind === 'tool_calls' ? scriptedToolUses(step, record.index).map((call) => call.json) : [];
  const model = step.kind === 'reply' || step.kind === 'tool_calls' ? step.model : undefined;
  return {
    id: `msg_scripted_${record.index}`,
    model: model ?? record.model ?? exchange.defaultModel,
    usage: usageFor(step, counted, argumentTexts),
    requestIndex: record.index,
  };
}

/** Writes events in order; stops (returning `false`) when the client goes away. */
async function writeEvents(exchange: AnthropicExchange, events: readonly StreamEvent[], chunkDelayMs?: number): Promise<boolean> {
  const { res, signal } = exchange;
  let deltas = 0;
  for (const { type, data } of events) {
    if (type === 'content_block_delta' && deltas++ > 0 && !(await sleep(chunkDelayMs, signal))) return false;
    if (signal.aborted) return false;
    await writeEvent(res, JSON.stringify(data), type);
  }
  return true;
}

async function streamAnswer(exchange: AnthropicExchange, step: ReplyStep | ToolCallsStep, context: MessageContext): Promise<void> {
  startEventStream(exchange.res, exchange.headers);
  if ((await writeEvents(exchange, streamEvents(step, context), step.chunkDelayMs)) && !exchange.signal.aborted) exchange.res.end();
}

/**
 * Carries out a step for a messages request: waits its `delayMs`, then
 * answers (a message object or an event stream), fails with an
 * Anthropic-shaped error, or drops the connection, and records the outcome.
 * Returns quietly when the client disconnects or the server closes.
 */
export async function answerAnthropicStep(exchange: AnthropicExchange, step: ScriptStep): Promise<void> {
  const { res, record, signal } = exchange;
  record.step = step;
  if (!(await sleep(step.delayMs, signal))) return;
  switch (step.kind) {
    case 'error': {
      record.outcome = `error ${step.status}`;
      const retryAfter: Record<string, string> = step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
      sendJson(res, step.status, anthropicErrorBody(step.status, exchange.requestId, step), { ...exchange.headers, ...retryAfter });
      return;
    }
    case 'drop': {
      if (step.when === 'mid-stream' && record.stream) {
        record.outcome = 'dropped mid-stream';
        startEventStream(res, exchange.headers);
        const context = contextFor(exchange, step);
        const partial = step.partialText ?? '';
        await writeEvents(exchange, [messageStart(context), textBlockStart(0), ...(partial === '' ? [] : [textDelta(0, partial)])]);
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
      else sendJson(res, 200, messageObject(step, context), exchange.headers);
      return;
    }
    default: {
      record.outcome = 'error 500';
      const kind = (step as { kind?: unknown }).kind;
      sendJson(
        res,
        500,
        anthropicErrorBody(500, exchange.requestId, { message: `scripted server: unknown step kind ${JSON.stringify(kind)} for request #${record.index}` }),
        exchange.headers,
      );
    }
  }
}
