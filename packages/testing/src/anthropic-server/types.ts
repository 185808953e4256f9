import type { RecordedRequest, ScriptStep } from '../openai-server/types.js';

/**
 * A content block of a message as the client sent it (wire format of the
 * Anthropic Messages API, not validated). Blocks of other types (`image`,
 * `document`, `thinking`, …) keep their own fields.
 */
export interface AnthropicContentBlock {
  /** `text`, `tool_use`, `tool_result`, `image`, `thinking`, … */
  type: string;
  /** `text` blocks: the text. */
  text?: string;
  /** `tool_use` blocks: the call id, such as `toolu_1_1`. */
  id?: string;
  /** `tool_use` blocks: the tool's name. */
  name?: string;
  /** `tool_use` blocks: the arguments, an object. */
  input?: unknown;
  /** `tool_result` blocks: the id of the `tool_use` this answers. */
  tool_use_id?: string;
  /** `tool_result` blocks: the result, a string or content blocks. */
  content?: string | AnthropicContentBlock[];
  /** `tool_result` blocks: the tool failed. */
  is_error?: boolean;
  [key: string]: unknown;
}

/**
 * A message as the client sent it: `user` or `assistant`, with a string or
 * content blocks. Tool results travel in `user` messages, as `tool_result`
 * blocks; there is no system role (the system prompt is a field of its own).
 */
export interface AnthropicMessage {
  role: string;
  content: string | AnthropicContentBlock[];
}

/** A tool offered in the request's `tools` (a client tool has a name, a description and an `input_schema`). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema?: unknown;
  /** Server tools only, such as `web_search_20250305`. */
  type?: string;
  [key: string]: unknown;
}

/** A tool call of an assistant message, from a `tool_use` block. */
export interface AnthropicToolUse {
  id: string;
  name: string;
  input: unknown;
}

/** A tool result of a user message, from a `tool_result` block, its content as text. */
export interface AnthropicToolResult {
  toolUseId: string;
  /** The result: a string content, or its text blocks joined with newlines. */
  text: string;
  /** `is_error` of the block, when the client set it. */
  isError?: boolean;
}

/**
 * A message of the request flattened for assertions: its text, and the tool
 * calls or tool results its blocks carry. Other blocks (images, thinking…)
 * are left out; `messages` keeps them.
 */
export interface AnthropicTranscriptEntry {
  role: string;
  /** A string content, or the `text` blocks joined with newlines (`""` when there are none). */
  text: string;
  /** The `tool_use` blocks of an assistant message, when it has any. */
  toolUses?: AnthropicToolUse[];
  /** The `tool_result` blocks of a user message, when it has any. */
  toolResults?: AnthropicToolResult[];
}

/**
 * One request the scripted Anthropic server received. It is a
 * {@link RecordedRequest}, so a {@link Responder} or a `scriptConversation`
 * written for the OpenAI server answers it as it is.
 */
export interface AnthropicRecordedRequest extends RecordedRequest {
  /** Messages requests: `model`. */
  readonly model?: string;
  /** Messages requests: `stream === true`. */
  readonly stream?: boolean;
  /** Messages requests: `messages`, in wire format. */
  readonly messages?: AnthropicMessage[];
  /** Messages requests: `messages` flattened to text, tool calls and tool results. */
  readonly transcript?: AnthropicTranscriptEntry[];
  /** Messages requests: `system`, a string or its text blocks joined with newlines. */
  readonly system?: string;
  /** Messages requests: `tools`, in wire format. */
  readonly tools?: AnthropicTool[];
  /** Messages requests: `tool_choice`, such as `{ type: 'auto' }`. */
  readonly toolChoice?: unknown;
  /** Messages requests: `max_tokens`. */
  readonly maxTokens?: number;
  /** The `anthropic-version` header, such as `2023-06-01`. */
  readonly anthropicVersion?: string;
  /**
   * Text of the last `user` message that has text (a string content, or its
   * text blocks joined with newlines). Messages made only of `tool_result`
   * blocks are skipped, so after a tool call this is still the human's last
   * words, as on the OpenAI server.
   */
  readonly lastUserText?: string;
}

/**
 * Answers a messages request for which the script queue is empty. Any
 * {@link Responder} (and `scriptConversation`) is one.
 */
export type AnthropicResponder = (request: AnthropicRecordedRequest) => ScriptStep | Promise<ScriptStep>;
