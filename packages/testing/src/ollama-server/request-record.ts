import type { OllamaMessage, OllamaRecordedRequest, OllamaTool, OllamaToolCall, OllamaTranscriptEntry } from './types.js';

/** An {@link OllamaRecordedRequest} the server may still update. */
export type MutableOllamaRecord = { -readonly [K in keyof OllamaRecordedRequest]: OllamaRecordedRequest[K] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `content` of a message as text (`""` when it is not a string). */
export function messageText(message: unknown): string {
  return isObject(message) && typeof message['content'] === 'string' ? message['content'] : '';
}

/** The `tool_calls` of a message, typed (entries without a `function` are left out). */
function toolCallsOf(message: OllamaMessage): OllamaToolCall[] {
  const calls = message['tool_calls'];
  if (!Array.isArray(calls)) return [];
  return calls.filter(isObject).flatMap((call) => {
    const fn = call['function'];
    if (!isObject(fn)) return [];
    return [{ name: String(fn['name']), arguments: fn['arguments'], ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}) }];
  });
}

/** A message flattened to its text, tool calls, tool name and number of images. */
export function transcriptEntry(message: OllamaMessage): OllamaTranscriptEntry {
  const entry: OllamaTranscriptEntry = { role: String(message?.role), text: messageText(message) };
  const toolCalls = isObject(message) ? toolCallsOf(message) : [];
  if (toolCalls.length > 0) entry.toolCalls = toolCalls;
  if (typeof message?.tool_name === 'string') entry.toolName = message.tool_name;
  if (Array.isArray(message?.images) && message.images.length > 0) entry.images = message.images.length;
  return entry;
}

/** `content` of the last `user` message that is not empty, or `undefined` when there is none. */
export function lastUserText(messages: readonly OllamaMessage[] | undefined): string | undefined {
  const last = messages?.findLast((message) => message?.role === 'user' && messageText(message) !== '');
  return last === undefined ? undefined : messageText(last);
}

/**
 * The convenience fields of a chat request (left out when absent): model,
 * stream, messages and their transcript, system text, tools, options, think,
 * format, keep_alive and the last user text.
 */
export function chatFields(body: unknown): Partial<MutableOllamaRecord> {
  if (!isObject(body)) return {};
  const messages = Array.isArray(body['messages']) ? (body['messages'] as OllamaMessage[]) : undefined;
  const fields: Partial<MutableOllamaRecord> = { stream: body['stream'] !== false };
  if (typeof body['model'] === 'string') fields.model = body['model'];
  if (messages) {
    fields.messages = messages;
    fields.transcript = messages.map(transcriptEntry);
    const system = messages.filter((message) => message?.role === 'system').map(messageText);
    if (system.length > 0) fields.system = system.join('\n');
  }
  if (Array.isArray(body['tools'])) fields.tools = body['tools'] as OllamaTool[];
  if (isObject(body['options'])) fields.options = body['options'];
  if (body['think'] !== undefined) fields.think = body['think'];
  if (body['format'] !== undefined) fields.format = body['format'];
  if (body['keep_alive'] !== undefined) fields.keepAlive = body['keep_alive'];
  const userText = lastUserText(messages);
  if (userText !== undefined) fields.lastUserText = userText;
  return fields;
}
