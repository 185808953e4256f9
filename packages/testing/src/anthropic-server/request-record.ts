import { contentText } from '../openai-server/usage.js';
import type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRecordedRequest,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolUse,
  AnthropicTranscriptEntry,
} from './types.js';

/** An {@link AnthropicRecordedRequest} the server may still update. */
export type MutableAnthropicRecord = { -readonly [K in keyof AnthropicRecordedRequest]: AnthropicRecordedRequest[K] };

/** The blocks of a content (none for a string or anything else). */
function blocksOf(content: unknown): AnthropicContentBlock[] {
  return Array.isArray(content) ? content.filter((block): block is AnthropicContentBlock => typeof block === 'object' && block !== null) : [];
}

/** Whether a message carries text: a string content, or at least one `text` block. */
function hasText(message: AnthropicMessage): boolean {
  return typeof message.content === 'string' || blocksOf(message.content).some((block) => block.type === 'text');
}

/** A message flattened to its text, tool calls and tool results. */
export function transcriptEntry(message: AnthropicMessage): AnthropicTranscriptEntry {
  const blocks = blocksOf(message?.content);
  const entry: AnthropicTranscriptEntry = { role: String(message?.role), text: contentText(message?.content) };
  const toolUses: AnthropicToolUse[] = blocks
    .filter((block) => block.type === 'tool_use')
    .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input }));
  const toolResults: AnthropicToolResult[] = blocks
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: String(block.tool_use_id),
      text: contentText(block.content),
      ...(block.is_error === undefined ? {} : { isError: block.is_error }),
    }));
  if (toolUses.length > 0) entry.toolUses = toolUses;
  if (toolResults.length > 0) entry.toolResults = toolResults;
  return entry;
}

/** The text a message counts for usage: its text, and the text of its tool results. */
export function countedText(message: AnthropicMessage): string {
  const entry = transcriptEntry(message);
  return [entry.text, ...(entry.toolResults ?? []).map((result) => result.text)].filter((text) => text !== '').join('\n');
}

/** Text of the last `user` message that has text, or `undefined` when there is none. */
export function lastUserText(messages: readonly AnthropicMessage[] | undefined): string | undefined {
  const last = messages?.findLast((message) => message?.role === 'user' && hasText(message));
  return last === undefined ? undefined : contentText(last.content);
}

/**
 * The convenience fields of a messages request (left out when absent): model,
 * stream, messages and their transcript, system, tools, tool choice, max
 * tokens and the last user text.
 */
export function messagesFields(body: unknown): Partial<MutableAnthropicRecord> {
  if (typeof body !== 'object' || body === null) return {};
  const request = body as Record<string, unknown>;
  const messages = Array.isArray(request['messages']) ? (request['messages'] as AnthropicMessage[]) : undefined;
  const fields: Partial<MutableAnthropicRecord> = { stream: request['stream'] === true };
  if (typeof request['model'] === 'string') fields.model = request['model'];
  if (messages) {
    fields.messages = messages;
    fields.transcript = messages.map(transcriptEntry);
  }
  const system = request['system'];
  if (typeof system === 'string' || Array.isArray(system)) fields.system = contentText(system);
  if (Array.isArray(request['tools'])) fields.tools = request['tools'] as AnthropicTool[];
  if (request['tool_choice'] !== undefined) fields.toolChoice = request['tool_choice'];
  if (typeof request['max_tokens'] === 'number') fields.maxTokens = request['max_tokens'];
  const userText = lastUserText(messages);
  if (userText !== undefined) fields.lastUserText = userText;
  return fields;
}
