import { splitText } from '../openai-server/chunks.js';
import type { ReplyStep, ToolCallsStep, Usage } from '../openai-server/types.js';

/** What every chunk of one answer (or the whole response) shares. */
export interface ResponseContext {
  /** `responseId` of the answer, e.g. `scripted_3`. */
  responseId: string;
  /** `modelVersion` of the answer. */
  model: string;
  /** Reported usage. */
  usage: Usage;
}

/** A `finishReason` for an OpenAI finish reason, so one step scripts every server; other values pass as they are. */
const FINISH_REASONS: Record<string, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  content_filter: 'SAFETY',
  tool_calls: 'STOP',
};

/**
 * `finishReason` of an answer: `STOP` for function calls (the Gemini API has
 * no reason of its own for them); for a reply, its `finishReason` (`stop` →
 * `STOP`, `length` → `MAX_TOKENS`, `content_filter` → `SAFETY`, Gemini values
 * such as `RECITATION` as they are), default `STOP`.
 */
export function finishReason(step: ReplyStep | ToolCallsStep): string {
  if (step.kind === 'tool_calls' && step.finishReason === undefined) return 'STOP';
  const reason = step.finishReason ?? 'STOP';
  return FINISH_REASONS[reason] ?? reason;
}

function parseArgs(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * The tool calls of a step as `functionCall` parts: `{ functionCall: { name,
 * args } }`, a string argument parsed (kept as the string when it is not
 * JSON). The Gemini API sends no call ids: `id` is only there when the step
 * gives one (LangChain then makes up a uuid for each `tool_calls` entry).
 */
export function functionCallParts(step: ToolCallsStep): Record<string, unknown>[] {
  return step.calls.map((call) => ({
    functionCall: {
      ...(call.id === undefined ? {} : { id: call.id }),
      name: call.name,
      args: typeof call.arguments === 'string' ? parseArgs(call.arguments) : call.arguments,
    },
  }));
}

/** The JSON text of each call's arguments, for the output word count. */
export function argumentTexts(step: ToolCallsStep): string[] {
  return step.calls.map((call) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)));
}

/** `usageMetadata` in the wire format of the Gemini API. */
export function usageMetadata(usage: Usage): { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number } {
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.completionTokens,
    totalTokenCount: usage.promptTokens + usage.completionTokens,
  };
}

/** A response with one candidate holding `parts`; `last` adds the finish reason and the usage. */
export function responseChunk(context: ResponseContext, parts: Record<string, unknown>[], last?: { finishReason: string }): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, ...(last ? { finishReason: last.finishReason } : {}), index: 0 }],
    ...(last ? { usageMetadata: usageMetadata(context.usage) } : {}),
    modelVersion: context.model,
    responseId: context.responseId,
  };
}

/** The text parts of an answer: the reply's text (also when empty), or the tool-call step's text when it has some. */
function textOf(step: ReplyStep | ToolCallsStep): string | undefined {
  if (step.kind === 'reply') return step.text;
  return step.text === undefined || step.text === '' ? undefined : step.text;
}

/**
 * A non-streaming `generateContent` response answering with a reply (one text
 * part) or function calls (`functionCall` parts, after a text part when the
 * step has text).
 */
export function responseObject(step: ReplyStep | ToolCallsStep, context: ResponseContext): Record<string, unknown> {
  const text = textOf(step);
  const parts = [...(text === undefined ? [] : [{ text }]), ...(step.kind === 'tool_calls' ? functionCallParts(step) : [])];
  return responseChunk(context, parts, { finishReason: finishReason(step) });
}

/**
 * The chunks of a streamed answer, each a partial response with one
 * candidate: the text in pieces, about one per word (a reply's `chunks` sets
 * the number), then the function calls together in one chunk (the Gemini API
 * never splits a call). The last chunk carries the `finishReason` and the
 * `usageMetadata`; an empty reply is one chunk with an empty text part.
 */
export function streamChunks(step: ReplyStep | ToolCallsStep, context: ResponseContext): Record<string, unknown>[] {
  const text = textOf(step);
  const groups: Record<string, unknown>[][] = [];
  if (text !== undefined) {
    const pieces = text === '' ? [''] : splitText(text, step.kind === 'reply' ? step.chunks : undefined);
    groups.push(...pieces.map((piece) => [{ text: piece }]));
  }
  if (step.kind === 'tool_calls') groups.push(functionCallParts(step));
  if (groups.length === 0) groups.push([{ text: '' }]);
  const reason = finishReason(step);
  return groups.map((parts, position) => responseChunk(context, parts, position === groups.length - 1 ? { finishReason: reason } : undefined));
}
