import type { ReplyStep, ToolCallsStep, Usage } from '../openai-server/types.js';

/** What every event of one answer (or the message object) shares. */
export interface MessageContext {
  /** `id` of the message, e.g. `msg_scripted_3`. */
  id: string;
  /** `model` of the answer. */
  model: string;
  /** Reported usage. */
  usage: Usage;
  /** 1-based index of the request, for default tool-use ids. */
  requestIndex: number;
}

/** A scripted tool call in the form of a `tool_use` block, with the JSON text the stream sends. */
export interface ScriptedToolUse {
  id: string;
  name: string;
  /** `input` of the block: the arguments object, or a string argument parsed (kept as the string when it is not JSON). */
  input: unknown;
  /** The arguments as JSON text, streamed in `input_json_delta` pieces (a string argument verbatim). */
  json: string;
}

/** A `stop_reason` for an OpenAI finish reason, so one step scripts both servers; other values pass as they are. */
const STOP_REASONS: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  content_filter: 'refusal',
  tool_calls: 'tool_use',
};

/**
 * `stop_reason` of an answer: `tool_use` for tool calls (unless the step
 * gives a `finishReason`, such as `length`: `max_tokens`); for a reply, its
 * `finishReason` (`stop` → `end_turn`, `length` → `max_tokens`,
 * `content_filter` → `refusal`, Anthropic values such as `stop_sequence` as
 * they are), default `end_turn`.
 */
export function stopReason(step: ReplyStep | ToolCallsStep): string {
  const reason = step.finishReason ?? (step.kind === 'tool_calls' ? 'tool_calls' : 'end_turn');
  return STOP_REASONS[reason] ?? reason;
}

function parseInput(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/** The tool calls of a step as `tool_use` blocks: ids default to `toolu_<request index>_<position, 1-based>`. */
export function scriptedToolUses(step: ToolCallsStep, requestIndex: number): ScriptedToolUse[] {
  return step.calls.map((call, position) => {
    const json = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    return {
      id: call.id ?? `toolu_${requestIndex}_${position + 1}`,
      name: call.name,
      input: typeof call.arguments === 'string' ? parseInput(call.arguments) : call.arguments,
      json,
    };
  });
}

/** `usage` in the wire format of the Anthropic API. */
export function usageJson(usage: Usage, outputTokens = usage.completionTokens): { input_tokens: number; output_tokens: number } {
  return { input_tokens: usage.promptTokens, output_tokens: outputTokens };
}

/**
 * The content blocks of an answer: a reply's text block (present even when
 * empty), or a tool-calls step's text block (when it has text) followed by
 * one `tool_use` block per call.
 */
export function contentBlocks(step: ReplyStep | ToolCallsStep, requestIndex: number): Record<string, unknown>[] {
  if (step.kind === 'reply') return [{ type: 'text', text: step.text }];
  const text = step.text === undefined || step.text === '' ? [] : [{ type: 'text', text: step.text }];
  return [...text, ...scriptedToolUses(step, requestIndex).map(({ id, name, input }) => ({ type: 'tool_use', id, name, input }))];
}

/** A non-streaming `message` object answering with a reply or tool calls. */
export function messageObject(step: ReplyStep | ToolCallsStep, context: MessageContext): Record<string, unknown> {
  return {
    id: context.id,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content: contentBlocks(step, context.requestIndex),
    stop_reason: stopReason(step),
    stop_sequence: null,
    usage: usageJson(context.usage),
  };
}
