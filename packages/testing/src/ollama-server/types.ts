import type { RecordedRequest, ScriptStep } from '../openai-server/types.js';

/**
 * A message as the client sent it (wire format of Ollama's `/api/chat`, not
 * validated): `system`, `user`, `assistant` or `tool`, with a string
 * `content`. An assistant message may carry `tool_calls`
 * (`[{ function: { name, arguments: {…} } }]`, LangChain adds `id` and
 * `type`); they are kept as sent and read through the index signature, or,
 * typed, in the request's `transcript`.
 */
export interface OllamaMessage {
  role: string;
  content: string;
  /** `user` messages: base64 images. */
  images?: string[];
  /** `tool` messages: the name of the tool answered, when the client sends it (`ChatOllama` does not). */
  tool_name?: string;
  /** `assistant` messages: the model's thinking, when it was sent back. */
  thinking?: string;
  [key: string]: unknown;
}

/** A tool offered in the request's `tools`: `{ type: 'function', function: { name, description, parameters } }`. */
export interface OllamaTool {
  type: string;
  function: { name: string; description?: string; parameters?: unknown; [key: string]: unknown };
  [key: string]: unknown;
}

/** A tool call of an assistant message sent back by the client, from its `tool_calls`. */
export interface OllamaToolCall {
  name: string;
  /** `function.arguments`: an object on Ollama's wire. */
  arguments: unknown;
  /** The call's `id`, when the client sent one (LangChain sends the id it made up). */
  id?: string;
}

/** A message of the request flattened for assertions. */
export interface OllamaTranscriptEntry {
  role: string;
  /** `content` (`""` when absent). */
  text: string;
  /** An assistant message's `tool_calls`, when it has any. */
  toolCalls?: OllamaToolCall[];
  /** A `tool` message's `tool_name`, when the client sent it. */
  toolName?: string;
  /** Number of images of the message, when it has any. */
  images?: number;
}

/**
 * One request the scripted Ollama server received. It is a
 * {@link RecordedRequest}, so a {@link Responder} or a `scriptConversation`
 * written for the OpenAI server answers it as it is.
 */
export interface OllamaRecordedRequest extends RecordedRequest {
  /** Chat requests: `model`. */
  readonly model?: string;
  /** Chat requests: `stream !== false` (Ollama streams unless told not to). */
  readonly stream?: boolean;
  /** Chat requests: `messages`, in wire format, system messages included. */
  readonly messages?: OllamaMessage[];
  /** Chat requests: `messages` flattened to text, tool calls and tool names. */
  readonly transcript?: OllamaTranscriptEntry[];
  /** Chat requests: the contents of the `system` messages joined with newlines (Ollama has no separate system field). */
  readonly system?: string;
  /** Chat requests: `tools`, in wire format. */
  readonly tools?: OllamaTool[];
  /** Chat requests: `options` as sent, such as `{ num_predict: 256, temperature: 0 }`. */
  readonly options?: Readonly<Record<string, unknown>>;
  /** Chat requests: `think`, when sent. */
  readonly think?: unknown;
  /** Chat requests: `format` (`json` or a JSON schema), when sent. */
  readonly format?: unknown;
  /** Chat requests: `keep_alive`, when sent. */
  readonly keepAlive?: unknown;
  /**
   * `content` of the last `user` message that is not empty (`ChatOllama`
   * sends an image as a `user` message of its own with empty content). Tool
   * results come back as `tool` messages, so after a tool call this is still
   * the human's last words, as on the OpenAI server.
   */
  readonly lastUserText?: string;
}

/**
 * Answers a chat request for which the script queue is empty. Any
 * {@link Responder} (and `scriptConversation`) is one.
 */
export type OllamaResponder = (request: OllamaRecordedRequest) => ScriptStep | Promise<ScriptStep>;
