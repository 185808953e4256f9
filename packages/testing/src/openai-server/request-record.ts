import type { IncomingHttpHeaders } from 'node:http';
import type { ChatMessage, RecordedRequest } from './types.js';
import { contentText } from './usage.js';

/** A {@link RecordedRequest} the server may still update. */
export type MutableRecordedRequest = { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] };

/** Header names in lower case (Node already lower-cases them), arrays joined with `", "`. */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

/** Text of the last message with role `user`, or `undefined` when there is none. */
export function lastUserText(messages: readonly ChatMessage[] | undefined): string | undefined {
  const last = messages?.findLast((message) => message?.role === 'user');
  return last === undefined ? undefined : contentText(last.content);
}

/** The convenience fields of a chat-completion request body (left out when absent). */
export function chatFields(body: unknown): Partial<MutableRecordedRequest> {
  if (typeof body !== 'object' || body === null) return {};
  const request = body as Record<string, unknown>;
  const messages = Array.isArray(request['messages']) ? (request['messages'] as ChatMessage[]) : undefined;
  const fields: Partial<MutableRecordedRequest> = { stream: request['stream'] === true };
  if (typeof request['model'] === 'string') fields.model = request['model'];
  if (messages) fields.messages = messages;
  if (Array.isArray(request['tools'])) fields.tools = request['tools'];
  if (request['tool_choice'] !== undefined) fields.toolChoice = request['tool_choice'];
  const userText = lastUserText(messages);
  if (userText !== undefined) fields.lastUserText = userText;
  return fields;
}

/** A text shortened to `max` characters for an error message, quoted. */
export function quoteShort(text: string | undefined, max = 300): string {
  if (text === undefined) return '(none)';
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
