import type { Server, ServerResponse } from 'node:http';
import { sendJson } from '../openai-server/http-io.js';
import { DEFAULT_MODELS, decodeModelId } from '../openai-server/models.js';
import type { MutableRecordedRequest } from '../openai-server/request-record.js';
import type { ScriptStep } from '../openai-server/types.js';
import { ScriptedHttpServer, isNoStep, listenLocal, type NoStep, type ParsedBody } from '../scripted-server/scripted-http-server.js';
import { answerAnthropicStep } from './answer-step.js';
import { apiKeyProblem } from './auth.js';
import { anthropicErrorBody } from './error-body.js';
import { anthropicModelList, anthropicModelObject } from './models.js';
import { type MutableAnthropicRecord, messagesFields } from './request-record.js';
import type { AnthropicRecordedRequest, AnthropicResponder } from './types.js';

/** Options of {@link startScriptedAnthropicServer}. */
export interface ScriptedAnthropicServerOptions {
  /** Steps queued from the start (same as calling `enqueue`). */
  script?: ScriptStep[];
  /** Answers messages requests once the queue is empty (same as `respondWith`). */
  responder?: AnthropicResponder;
  /** Port on 127.0.0.1; default 0, a random free port. */
  port?: number;
  /** When set, every request must carry `x-api-key: <apiKey>`, or gets a 401 `authentication_error`. */
  apiKey?: string;
  /** Model ids listed by `GET /v1/models`; default `["scripted-model"]`. */
  models?: string[];
}

/** A running scripted Anthropic server; see {@link startScriptedAnthropicServer}. */
export interface ScriptedAnthropicServer {
  /**
   * Base URL for the client: the server's root, such as `http://127.0.0.1:41234`
   * (`anthropicApiUrl` of `ChatAnthropic`, `baseURL` of the SDK,
   * `ANTHROPIC_BASE_URL`); the client appends `/v1/messages`.
   */
  readonly url: string;
  /** Every request received, in order, including failed, dropped and in-flight ones. */
  readonly requests: readonly AnthropicRecordedRequest[];
  /** Only the `POST /v1/messages` requests. */
  readonly messages: readonly AnthropicRecordedRequest[];
  /** Number of queued steps not used yet. */
  readonly remaining: number;
  /**
   * Appends steps to the queue; each messages request takes the first one
   * (concurrent requests in the order their bodies finish arriving).
   * Requests refused before that (401, 400 bad JSON) use no step.
   */
  enqueue(...steps: ScriptStep[]): this;
  /** Sets (or with `undefined` removes) the function that answers messages requests while the queue is empty. */
  respondWith(responder: AnthropicResponder | undefined): this;
  /** Clears the queue, the responder and the request log (indexes start again at 1). */
  reset(): void;
  /**
   * Stops the server: in-flight requests are cut off (their outcome becomes
   * `server closed`), open sockets destroyed, timers cleared. Idempotent.
   */
  close(): Promise<void>;
}

const MESSAGES_PATH = '/v1/messages';
const MODELS_PATH = '/v1/models';

class ScriptedAnthropic extends ScriptedHttpServer<MutableAnthropicRecord, AnthropicResponder> implements ScriptedAnthropicServer {
  constructor(
    server: Server,
    private readonly options: ScriptedAnthropicServerOptions,
  ) {
    super(server, options);
  }

  get messages(): readonly AnthropicRecordedRequest[] {
    return this.log.filter((record) => record.method === 'POST' && record.path === MESSAGES_PATH);
  }

  private get models(): readonly string[] {
    return this.options.models ?? DEFAULT_MODELS;
  }

  protected newRecord(base: MutableRecordedRequest): MutableAnthropicRecord {
    const record = base as MutableAnthropicRecord; // no API fields yet: they come with the body
    const version = record.headers['anthropic-version'];
    if (version !== undefined) record.anthropicVersion = version;
    return record;
  }

  private fail(record: MutableAnthropicRecord, res: ServerResponse, status: number, message: string, outcome: MutableAnthropicRecord['outcome'] = `error ${status}`): void {
    record.outcome = outcome;
    sendJson(res, status, anthropicErrorBody(status, requestIdOf(record), { message }), headersOf(record));
  }

  protected internalError(record: MutableAnthropicRecord, res: ServerResponse, message: string, outcome?: NoStep['outcome']): void {
    this.fail(record, res, 500, message, outcome);
  }

  protected async route(record: MutableAnthropicRecord, { badJson }: ParsedBody, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const headers = headersOf(record);
    if (record.path === MESSAGES_PATH) Object.assign(record, messagesFields(record.body));
    const keyProblem = this.options.apiKey === undefined ? undefined : apiKeyProblem(record.headers['x-api-key'], this.options.apiKey);
    if (keyProblem !== undefined) return this.fail(record, res, 401, keyProblem);
    if (record.method === 'GET' && record.path === MODELS_PATH) {
      record.outcome = 'models';
      return sendJson(res, 200, anthropicModelList(this.models), headers);
    }
    if (record.method === 'GET' && record.path.startsWith(`${MODELS_PATH}/`)) {
      const id = decodeModelId(record.path.slice(MODELS_PATH.length + 1));
      if (id === undefined || !this.models.includes(id)) return this.fail(record, res, 404, `model: ${id ?? record.path}`);
      record.outcome = 'models';
      return sendJson(res, 200, anthropicModelObject(id), headers);
    }
    if (record.method !== 'POST' || record.path !== MESSAGES_PATH) {
      return this.fail(record, res, 404, `Unknown request URL: ${record.method} ${record.path}. The scripted server serves POST ${MESSAGES_PATH} and GET ${MODELS_PATH}.`);
    }
    if (badJson) return this.fail(record, res, 400, 'The request body is not valid JSON.');
    const step = await this.takeStep(record);
    if (isNoStep(step)) return this.internalError(record, res, step.message, step.outcome);
    if (signal.aborted) return;
    await answerAnthropicStep({ res, record, signal, defaultModel: this.models[0] ?? 'scripted-model', requestId: requestIdOf(record), headers }, step);
  }
}

/** The id every answer to a request carries (`request-id`, and in error bodies). */
function requestIdOf(record: MutableAnthropicRecord): string {
  return `req_scripted_${record.index}`;
}

function headersOf(record: MutableAnthropicRecord): Record<string, string> {
  return { 'request-id': requestIdOf(record) };
}

/**
 * Starts an HTTP server on 127.0.0.1 that speaks the Anthropic Messages API
 * and answers from a script, so tests run the real Anthropic client (e.g.
 * LangChain's `ChatAnthropic`) without a network: the twin of
 * `startScriptedOpenAIServer`, scripted with the same steps (`reply`,
 * `toolCall`, `toolCalls`, `httpError`, `dropConnection`) and responders
 * (`scriptConversation`). Call `close()` when done (e.g. in `afterEach`).
 *
 * Serves `POST /v1/messages` (a message object, or server-sent events when
 * the request has `"stream": true`: `message_start`, `content_block_start`,
 * `ping`, `content_block_delta`, `content_block_stop`, `message_delta`,
 * `message_stop`, each as `event: <type>` and `data: <json>`), `GET /v1/models`
 * and `GET /v1/models/{id}`; anything else gets a 404 `not_found_error`. Bad
 * JSON gets a 400 `invalid_request_error`; with `apiKey`, a missing or wrong
 * `x-api-key` header gets a 401 `authentication_error` (before any step is
 * used). Every answer carries a `request-id` header (`req_scripted_<n>`);
 * error bodies are `{ type: 'error', error: { type, message }, request_id }`.
 *
 * Each messages request takes the next queued step; when the queue is empty
 * the responder answers; without either the server answers 500 with
 * `scripted server: no response scripted for request #N (last user message: "...")`,
 * so a test fails loudly and never hangs.
 *
 * A reply answers with a text block (`stop_reason` `end_turn`, or the step's
 * `finishReason`: `length` → `max_tokens`); tool calls answer with
 * `tool_use` blocks (ids `toolu_<request>_<n>` unless given, `stop_reason`
 * `tool_use`), after a text block when the step has text.
 *
 * Usage defaults to deterministic counts: input tokens = whitespace-separated
 * words of the system prompt and of every message's text and tool results,
 * output tokens = words of the reply text plus words of the tool-call
 * argument JSON (each at least 1).
 *
 * @example
 * const server = await startScriptedAnthropicServer({ script: [reply('Hello!')] });
 * const model = new ChatAnthropic({ model: 'scripted-model', apiKey: 'test', maxRetries: 0, anthropicApiUrl: server.url });
 * const answer = await model.invoke('Hi');   // answer.content === 'Hello!'
 * expect(server.messages[0]?.lastUserText).toBe('Hi');
 * await server.close();
 */
export async function startScriptedAnthropicServer(options: ScriptedAnthropicServerOptions = {}): Promise<ScriptedAnthropicServer> {
  return new ScriptedAnthropic(await listenLocal(options.port), options);
}
