import type { DropStep, ErrorStep, ReplyStep, ScriptedToolCall, ToolCallsStep } from './types.js';

/** Options of {@link reply}: everything of a {@link ReplyStep} but its kind and text. */
export type ReplyOptions = Omit<ReplyStep, 'kind' | 'text'>;

/** Options of {@link toolCalls} and {@link toolCall}. */
export type ToolCallsOptions = Omit<ToolCallsStep, 'kind' | 'calls'>;

/** Options of {@link httpError}. */
export type HttpErrorOptions = Omit<ErrorStep, 'kind' | 'status'>;

/**
 * A step answering with assistant text.
 * @example server.enqueue(reply('Done.', { usage: { promptTokens: 12, completionTokens: 2 } }))
 */
export function reply(text: string, options: ReplyOptions = {}): ReplyStep {
  return { kind: 'reply', text, ...options };
}

/**
 * A step answering with several tool calls at once.
 * @example server.enqueue(toolCalls([{ name: 'read_file', arguments: { path: 'a.txt' } }]))
 */
export function toolCalls(calls: ScriptedToolCall[], options: ToolCallsOptions = {}): ToolCallsStep {
  return { kind: 'tool_calls', calls, ...options };
}

/**
 * A step answering with a single tool call.
 * @example server.enqueue(toolCall('get_weather', { city: 'Paris' }), reply('It is sunny.'))
 */
export function toolCall(
  name: string,
  args: Record<string, unknown> | string,
  options: ToolCallsOptions & { id?: string } = {},
): ToolCallsStep {
  const { id, ...rest } = options;
  return toolCalls([{ name, arguments: args, ...(id === undefined ? {} : { id }) }], rest);
}

/**
 * A step answering with an HTTP error and an error body shaped as the
 * server's API shapes it (OpenAI's, or Anthropic's on the Anthropic server).
 * @example server.enqueue(httpError(429, { retryAfterSeconds: 2 }), reply('ok after retry'))
 */
export function httpError(status: number, options: HttpErrorOptions = {}): ErrorStep {
  return { kind: 'error', status, ...options };
}

/**
 * A step breaking the connection: before anything is sent (default), or after
 * the first chunk of a streamed answer.
 * @example server.enqueue(dropConnection('mid-stream'))
 */
export function dropConnection(
  when: DropStep['when'] = 'before-response',
  options: Omit<DropStep, 'kind' | 'when'> = {},
): DropStep {
  return { kind: 'drop', when, ...options };
}
