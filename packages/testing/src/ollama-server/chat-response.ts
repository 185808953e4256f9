import { splitText } from '../openai-server/chunks.js';
import type { ReplyStep, ToolCallsStep, Usage } from '../openai-server/types.js';

/** What every line of one answer (or the response object) shares. */
export interface ChatContext {
  /** `model` of the answer. */
  model: string;
  /** `created_at`, an ISO date. */
  createdAt: string;
  /** Reported usage. */
  usage: Usage;
}

/** A tool call in the wire format of Ollama: no id, `arguments` an object. */
export interface OllamaWireToolCall {
  function: { name: string; arguments: unknown };
}

function parseArguments(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * The tool calls of a step in Ollama's wire format. A string argument is sent
 * parsed, or as the string when it is not JSON; scripted ids are not sent
 * (Ollama has none; `ChatOllama` makes up its own).
 */
export function wireToolCalls(step: ToolCallsStep): OllamaWireToolCall[] {
  return step.calls.map((call) => ({
    function: { name: call.name, arguments: typeof call.arguments === 'string' ? parseArguments(call.arguments) : call.arguments },
  }));
}

/** The tool calls' arguments as JSON text, for the usage count. */
export function argumentTexts(step: ToolCallsStep): string[] {
  return step.calls.map((call) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)));
}

/**
 * `done_reason` of an answer: a reply's `finishReason` (`stop` by default,
 * `length` as it is, anything else as it is); tool calls: `stop`, as Ollama
 * reports them.
 */
export function doneReason(step: ReplyStep | ToolCallsStep): string {
  return step.finishReason ?? 'stop';
}

/**
 * The closing fields of an answer: `done: true`, `done_reason`, the usage as
 * `prompt_eval_count` and `eval_count`, and made-up durations (nanoseconds,
 * 1 ms a prompt token and 10 ms an output token).
 */
export function doneFields(step: ReplyStep | ToolCallsStep, context: ChatContext): Record<string, unknown> {
  const promptEval = context.usage.promptTokens * 1_000_000;
  const evalDuration = context.usage.completionTokens * 10_000_000;
  return {
    done: true,
    done_reason: doneReason(step),
    total_duration: 1_000_000 + promptEval + evalDuration,
    load_duration: 1_000_000,
    prompt_eval_count: context.usage.promptTokens,
    prompt_eval_duration: promptEval,
    eval_count: context.usage.completionTokens,
    eval_duration: evalDuration,
  };
}

/** One line of a streamed answer that is not the last: an assistant message piece, `done: false`. */
export function streamLine(context: ChatContext, message: Record<string, unknown>): Record<string, unknown> {
  return { model: context.model, created_at: context.createdAt, message: { role: 'assistant', ...message }, done: false };
}

/** A non-streaming answer: the whole message and the closing fields. */
export function chatResponse(step: ReplyStep | ToolCallsStep, context: ChatContext): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: step.text ?? '' };
  if (step.kind === 'tool_calls') message['tool_calls'] = wireToolCalls(step);
  return { model: context.model, created_at: context.createdAt, message, ...doneFields(step, context) };
}

/**
 * The lines of a streamed answer, as Ollama sends them: the text in pieces
 * (about one per word; a reply's `chunks` sets the number), each a message
 * with `done: false`; a tool-calls step's calls all in one more such line
 * (empty `content`, as Ollama sends them; `ChatOllama` gives every call of
 * a chunk the same index, so calls spread over lines would merge); then the
 * last line: an empty message with `done: true`, `done_reason` and the usage.
 */
export function streamLines(step: ReplyStep | ToolCallsStep, context: ChatContext): Record<string, unknown>[] {
  const text = step.text ?? '';
  const pieces = text === '' ? [] : splitText(text, step.kind === 'reply' ? step.chunks : undefined);
  const lines = pieces.map((content) => streamLine(context, { content }));
  if (step.kind === 'tool_calls') lines.push(streamLine(context, { content: '', tool_calls: wireToolCalls(step) }));
  lines.push({ model: context.model, created_at: context.createdAt, message: { role: 'assistant', content: '' }, ...doneFields(step, context) });
  return lines;
}
