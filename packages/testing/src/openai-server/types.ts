/**
 * Token counts of one scripted answer; the OpenAI server reports
 * `total_tokens` as their sum.
 */
export interface Usage {
  /** Reported as `usage.prompt_tokens` (Anthropic server: `usage.input_tokens`). */
  promptTokens: number;
  /** Reported as `usage.completion_tokens` (Anthropic server: `usage.output_tokens`). */
  completionTokens: number;
}

/** One function call the model "makes" in a {@link ToolCallsStep}. */
export interface ScriptedToolCall {
  /** Name of the tool (function) to call. */
  name: string;
  /**
   * Arguments of the call. An object is sent as its JSON text; a string is sent
   * verbatim, so a test can send malformed JSON on purpose (the Anthropic
   * server streams it verbatim, and in a non-streaming `tool_use` block sends
   * it parsed, or as the string when it is not JSON).
   */
  arguments: Record<string, unknown> | string;
  /** Call id; default `call_<request index>_<position, 1-based>` (Anthropic server: `toolu_…`). */
  id?: string;
}

/** Answer with assistant text. */
export interface ReplyStep {
  kind: 'reply';
  /** The assistant's message content. */
  text: string;
  /** Reported usage; default: deterministic word counts (see {@link startScriptedOpenAIServer}). */
  usage?: Usage;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Streaming only: milliseconds to wait between two chunks. */
  chunkDelayMs?: number;
  /** Streaming only: number of content chunks; default about one per word. */
  chunks?: number;
  /** `model` of the answer; default the model of the request. */
  model?: string;
  /**
   * `finish_reason` of the answer; default `"stop"`. The Anthropic server
   * reports it as `stop_reason`: `stop` → `end_turn` (the default), `length`
   * → `max_tokens`, `content_filter` → `refusal`, anything else as it is.
   */
  finishReason?: string;
}

/** Answer with one or more tool calls (finish reason `"tool_calls"`; Anthropic: `tool_use` blocks, stop reason `"tool_use"`). */
export interface ToolCallsStep {
  kind: 'tool_calls';
  /** The calls, in order. */
  calls: ScriptedToolCall[];
  /** Assistant text sent along with the calls; default none (`content: null`). */
  text?: string;
  /** Reported usage; default: deterministic word counts. */
  usage?: Usage;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  /** Streaming only: milliseconds to wait between two chunks. */
  chunkDelayMs?: number;
  /** `model` of the answer; default the model of the request. */
  model?: string;
  /**
   * `finish_reason` of the answer; default `"tool_calls"`. `"length"` says the
   * reply was cut at the token limit (give a call cut-off `arguments` text to
   * go with it). The Anthropic server reports `length` as `max_tokens`.
   */
  finishReason?: string;
}

/** Answer with an HTTP error and an error body shaped as the server's API shapes it. */
export interface ErrorStep {
  kind: 'error';
  /** HTTP status, e.g. 429 or 500 (Anthropic: 529 for overloaded). */
  status: number;
  /** `error.message`; default a message typical of the status. */
  message?: string;
  /**
   * `error.type`; default by status, e.g. `rate_limit_exceeded`, `server_error`,
   * `invalid_request_error` (Anthropic: `rate_limit_error`, `api_error`,
   * `overloaded_error`, …).
   */
  type?: string;
  /**
   * `error.code`, e.g. `context_length_exceeded`; default by status (mostly
   * `null`). The Anthropic API has no codes: there `context_length_exceeded`
   * only sets the default message to its `prompt is too long` one.
   */
  code?: string;
  /** Sends a `Retry-After` header with this many seconds. */
  retryAfterSeconds?: number;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

/** Break the connection instead of answering. */
export interface DropStep {
  kind: 'drop';
  /**
   * `before-response`: destroy the socket without sending anything.
   * `mid-stream`: for a streaming request, send the headers and a first chunk
   * (Anthropic: `message_start`, a text block's start and its partial text),
   * then destroy the socket; for a non-streaming request, same as `before-response`.
   */
  when: 'before-response' | 'mid-stream';
  /** `mid-stream` only: content of the first (and last) chunk; default `""` (Anthropic: no text delta). */
  partialText?: string;
  /** Milliseconds to wait before dropping. */
  delayMs?: number;
}

/** What the server does for one chat-completion request (or, on the Anthropic server, one messages request). */
export type ScriptStep = ReplyStep | ToolCallsStep | ErrorStep | DropStep;

/** A text part of an array-valued message `content`. */
export interface ChatContentPart {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** A tool call inside an assistant message sent back by the client. */
export interface ChatToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/** A chat message as the client sent it (wire format, not validated). */
export interface ChatMessage {
  /** `system`, `developer`, `user`, `assistant` or `tool`. */
  role: string;
  content?: string | ChatContentPart[] | null;
  name?: string;
  /** Assistant messages: the tool calls the model made. */
  tool_calls?: ChatToolCall[];
  /** Tool messages: the id of the call this is the result of. */
  tool_call_id?: string;
}

/**
 * What the server did with a request:
 * `pending` (still in progress), `reply`, `tool_calls`, `error <status>` (scripted
 * or protocol errors: 400 bad JSON, 401 bad key, 404 unknown route), `no script`
 * (500, nothing scripted), `responder error` (500, the responder threw),
 * `dropped before-response`, `dropped mid-stream`, `aborted` (the client
 * disconnected first), `server closed` (close() was called first), `models`
 * (a models listing).
 */
export type RequestOutcome =
  | 'pending'
  | 'reply'
  | 'tool_calls'
  | `error ${number}`
  | 'no script'
  | 'responder error'
  | 'dropped before-response'
  | 'dropped mid-stream'
  | 'aborted'
  | 'server closed'
  | 'models';

/** One request the server received, as recorded in its log. */
export interface RecordedRequest {
  /** 1-based position over all requests since start (or the last reset). */
  readonly index: number;
  /** HTTP method, e.g. `POST`. */
  readonly method: string;
  /** Full path without the query string, e.g. `/v1/chat/completions`. */
  readonly path: string;
  /** Request headers, names in lower case (repeated headers joined with `", "`). */
  readonly headers: Readonly<Record<string, string>>;
  /** Parsed JSON body, or `undefined` when there was none or it was not JSON. */
  readonly body: unknown;
  /** Chat completions: `model`. */
  readonly model?: string;
  /** Chat completions: `stream === true`. */
  readonly stream?: boolean;
  /** Chat completions: `messages`. */
  readonly messages?: ChatMessage[];
  /** Chat completions: `tools`. */
  readonly tools?: unknown[];
  /** Chat completions: `tool_choice`. */
  readonly toolChoice?: unknown;
  /** Text of the last message with role `user` (a string content, or its text parts joined). */
  readonly lastUserText?: string;
  /** `Date.now()` when the request arrived. */
  readonly at: number;
  /** What the server did; updated while the request is in flight. */
  readonly outcome: RequestOutcome;
  /** The step that answered a chat completion, when one was found. */
  readonly step?: ScriptStep;
}

/** Answers a chat-completion request for which the script queue is empty. */
export type Responder = (request: RecordedRequest) => ScriptStep | Promise<ScriptStep>;
