import type { RecordedRequest, ScriptStep } from '../openai-server/types.js';

/** A function call part's call: `{ name, args }` (and an `id` on some API versions). */
export interface GeminiFunctionCall {
  name: string;
  args?: Record<string, unknown>;
  id?: string;
  [key: string]: unknown;
}

/** A function response part's response: the name of the function and the result object. */
export interface GeminiFunctionResponse {
  name: string;
  /** LangChain sends `{ result }` (or `{ error: { details } }` when the tool failed). */
  response?: Record<string, unknown>;
  id?: string;
  [key: string]: unknown;
}

/**
 * A part of a content as the client sent it (wire format of the Gemini API,
 * not validated). Other parts (`inlineData`, `fileData`, `executableCode`,
 * thoughts…) keep their own fields.
 */
export interface GeminiPart {
  text?: string;
  /** `true` on a thought summary part. */
  thought?: boolean;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  [key: string]: unknown;
}

/**
 * A content of the request: `user` or `model`, with parts. Function responses
 * travel in `user` contents (LangChain) or `function` ones; the system
 * instruction is a field of its own.
 */
export interface GeminiContent {
  role?: string;
  parts?: GeminiPart[];
}

/** A function the request offers, from `tools[].functionDeclarations`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** An OpenAPI-subset schema (`type: 'object'`, `properties`, …). */
  parameters?: unknown;
  [key: string]: unknown;
}

/** A tool of the request's `tools`: function declarations, or a built-in tool (`googleSearch`, `codeExecution`, …). */
export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
  [key: string]: unknown;
}

/** The request's `toolConfig`: how functions may be called. */
export interface GeminiToolConfig {
  functionCallingConfig?: {
    /** `AUTO`, `ANY`, `NONE` (or `VALIDATED`). */
    mode?: string;
    /** With `ANY`: the functions the model may call. */
    allowedFunctionNames?: string[];
  };
  [key: string]: unknown;
}

/** The request's `generationConfig`, as sent (LangChain sends every field, some `undefined` hence missing). */
export interface GeminiGenerationConfig {
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stopSequences?: string[];
  responseMimeType?: string;
  /** Such as `{ thinkingBudget: 0 }` or `{ includeThoughts: true }`. */
  thinkingConfig?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A function call of a `model` content, from a `functionCall` part. */
export interface GeminiTranscriptCall {
  name: string;
  args: unknown;
  id?: string;
}

/** A function response of a content, from a `functionResponse` part, with its result as text. */
export interface GeminiTranscriptResponse {
  name: string;
  /** The `response` object as sent. */
  response: unknown;
  /**
   * The result as text: `response.result` (or `response.output`) when it is
   * a string, else the `response` object as JSON.
   */
  text: string;
  id?: string;
}

/**
 * A content of the request flattened for assertions: its text, and the
 * function calls or function responses its parts carry. Other parts
 * (images, thoughts…) are left out; `contents` keeps them.
 */
export interface GeminiTranscriptEntry {
  /** `user`, `model` or `function`; `user` when the content gave none. */
  role: string;
  /** The text parts (thoughts excluded) joined with newlines, `""` when there are none. */
  text: string;
  /** The `functionCall` parts, when there are any. */
  functionCalls?: GeminiTranscriptCall[];
  /** The `functionResponse` parts, when there are any. */
  functionResponses?: GeminiTranscriptResponse[];
}

/**
 * One request the scripted Gemini server received. It is a
 * {@link RecordedRequest}, so a {@link Responder} or a `scriptConversation`
 * written for the OpenAI server answers it as it is.
 */
export interface GeminiRecordedRequest extends RecordedRequest {
  /** Generate requests: the model of the path, without `models/` (`gemini-test` for `/v1beta/models/gemini-test:generateContent`). */
  readonly model?: string;
  /** API version of the path, such as `v1beta`. */
  readonly apiVersion?: string;
  /** Generate requests: `true` for `streamGenerateContent`. */
  readonly stream?: boolean;
  /** Streaming requests: whether the query asked for server-sent events (`alt=sse`); without it the answer is a JSON array. */
  readonly sse?: boolean;
  /** Generate requests: `contents`, in wire format. */
  readonly contents?: GeminiContent[];
  /** Generate requests: `contents` flattened to text, function calls and function responses. */
  readonly transcript?: GeminiTranscriptEntry[];
  /** Generate requests: the text parts of `systemInstruction` joined with newlines. */
  readonly system?: string;
  /** Generate requests: `tools`, in wire format. */
  readonly tools?: GeminiTool[];
  /** Generate requests: every `functionDeclarations` entry of `tools`, in order. */
  readonly functionDeclarations?: GeminiFunctionDeclaration[];
  /** Generate requests: `toolConfig`. */
  readonly toolConfig?: GeminiToolConfig;
  /** Generate requests: `generationConfig`. */
  readonly generationConfig?: GeminiGenerationConfig;
  /**
   * Text of the last `user` content that has text (its text parts joined
   * with newlines). Contents made only of function responses are skipped,
   * so after a tool call this is still the human's last words, as on the
   * OpenAI server.
   */
  readonly lastUserText?: string;
}

/**
 * Answers a generate request for which the script queue is empty. Any
 * {@link Responder} (and `scriptConversation`) is one.
 */
export type GeminiResponder = (request: GeminiRecordedRequest) => ScriptStep | Promise<ScriptStep>;
