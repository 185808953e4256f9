import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { sendJson } from '../openai-server/http-io.js';
import { DEFAULT_MODELS } from '../openai-server/models.js';
import type { MutableRecordedRequest } from '../openai-server/request-record.js';
import type { ScriptStep } from '../openai-server/types.js';
import { ScriptedHttpServer, isNoStep, listenLocal, type NoStep, type ParsedBody } from '../scripted-server/scripted-http-server.js';
import { answerGeminiStep } from './answer-step.js';
import { keyRefusal } from './auth.js';
import { geminiErrorBody } from './error-body.js';
import { geminiModelList, geminiModelObject } from './models.js';
import { type MutableGeminiRecord, generateFields } from './request-record.js';
import { routeOf } from './routes.js';
import type { GeminiRecordedRequest, GeminiResponder } from './types.js';

/** Options of {@link startScriptedGeminiServer}. */
export interface ScriptedGeminiServerOptions {
  /** Steps queued from the start (same as calling `enqueue`). */
  script?: ScriptStep[];
  /** Answers generate requests once the queue is empty (same as `respondWith`). */
  responder?: GeminiResponder;
  /** Port on 127.0.0.1; default 0, a random free port. */
  port?: number;
  /**
   * When set, every request must carry this key, in the `x-goog-api-key`
   * header or the `key` query parameter: none gets a 403 `PERMISSION_DENIED`,
   * another one a 400 `INVALID_ARGUMENT` "API key not valid", as the Gemini API answers.
   */
  apiKey?: string;
  /** Model ids (without `models/`) listed by `GET /v1beta/models`; default `["scripted-model"]`. */
  models?: string[];
}

/** A running scripted Gemini server; see {@link startScriptedGeminiServer}. */
export interface ScriptedGeminiServer {
  /**
   * Base URL for the client: the server's root, such as `http://127.0.0.1:41234`
   * (`baseUrl` of `ChatGoogleGenerativeAI` and of the SDK's request options);
   * the client appends `/v1beta/models/{model}:generateContent`.
   */
  readonly url: string;
  /** Every request received, in order, including failed, dropped and in-flight ones. */
  readonly requests: readonly GeminiRecordedRequest[];
  /** Only the `generateContent` and `streamGenerateContent` requests. */
  readonly generations: readonly GeminiRecordedRequest[];
  /** Number of queued steps not used yet. */
  readonly remaining: number;
  /**
   * Appends steps to the queue; each generate request takes the first one
   * (concurrent requests in the order their bodies finish arriving).
   * Requests refused before that (bad key, 400 bad JSON) use no step.
   */
  enqueue(...steps: ScriptStep[]): this;
  /** Sets (or with `undefined` removes) the function that answers generate requests while the queue is empty. */
  respondWith(responder: GeminiResponder | undefined): this;
  /** Clears the queue, the responder and the request log (indexes start again at 1). */
  reset(): void;
  /**
   * Stops the server: in-flight requests are cut off (their outcome becomes
   * `server closed`), open sockets destroyed, timers cleared. Idempotent.
   */
  close(): Promise<void>;
}

/** Whether a record is a generate request (it has an API version and a `stream` flag). */
function isGenerate(record: GeminiRecordedRequest): boolean {
  return record.stream !== undefined;
}

class ScriptedGemini extends ScriptedHttpServer<MutableGeminiRecord, GeminiResponder> implements ScriptedGeminiServer {
  constructor(
    server: Server,
    private readonly options: ScriptedGeminiServerOptions,
  ) {
    super(server, options);
  }

  get generations(): readonly GeminiRecordedRequest[] {
    return this.log.filter(isGenerate);
  }

  private get models(): readonly string[] {
    return this.options.models ?? DEFAULT_MODELS;
  }

  protected newRecord(base: MutableRecordedRequest, req: IncomingMessage): MutableGeminiRecord {
    const record = base as MutableGeminiRecord; // no API fields yet: they come with the path and the body
    const route = routeOf(record.method, record.path);
    if (route.apiVersion !== undefined) record.apiVersion = route.apiVersion;
    if (route.kind === 'generate') {
      record.model = route.model;
      record.stream = route.stream;
      if (route.stream) record.sse = queryOf(req).get('alt') === 'sse';
    }
    return record;
  }

  private fail(record: MutableGeminiRecord, res: ServerResponse, status: number, message: string, outcome: MutableGeminiRecord['outcome'] = `error ${status}`): void {
    record.outcome = outcome;
    sendJson(res, status, geminiErrorBody(status, { message }));
  }

  protected internalError(record: MutableGeminiRecord, res: ServerResponse, message: string, outcome?: NoStep['outcome']): void {
    this.fail(record, res, 500, message, outcome);
  }

  protected async route(record: MutableGeminiRecord, { badJson }: ParsedBody, res: ServerResponse, signal: AbortSignal, req: IncomingMessage): Promise<void> {
    const route = routeOf(record.method, record.path);
    if (route.kind === 'generate') Object.assign(record, generateFields(record.body));
    const refusal = this.options.apiKey === undefined ? undefined : keyRefusal(record.headers['x-goog-api-key'], queryOf(req).get('key'), this.options.apiKey);
    if (refusal !== undefined) {
      record.outcome = `error ${refusal.status}`;
      return sendJson(res, refusal.status, refusal.body);
    }
    switch (route.kind) {
      case 'list-models':
        record.outcome = 'models';
        return sendJson(res, 200, geminiModelList(this.models));
      case 'get-model':
        if (!this.models.includes(route.model)) return this.fail(record, res, 404, `models/${route.model} is not found for API version ${route.apiVersion}.`);
        record.outcome = 'models';
        return sendJson(res, 200, geminiModelObject(route.model));
      case 'generate': {
        if (badJson) return this.fail(record, res, 400, 'Invalid JSON payload received. Unexpected token.');
        const step = await this.takeStep(record);
        if (isNoStep(step)) return this.internalError(record, res, step.message, step.outcome);
        if (signal.aborted) return;
        return await answerGeminiStep({ res, record, signal, defaultModel: this.models[0] ?? 'scripted-model' }, step);
      }
      default:
        return this.fail(
          record,
          res,
          404,
          `Unknown request URL: ${record.method} ${record.path}. The scripted server serves POST /v1beta/models/{model}:generateContent, POST /v1beta/models/{model}:streamGenerateContent and GET /v1beta/models.`,
        );
    }
  }
}

/** The query of a request's URL (`alt`, `key`). */
function queryOf(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
}

/**
 * Starts an HTTP server on 127.0.0.1 that speaks the Gemini API (Google's
 * Generative Language API) and answers from a script, so tests run the real
 * Gemini client (LangChain's `ChatGoogleGenerativeAI`, i.e.
 * `@google/generative-ai`) without a network: the twin of
 * `startScriptedOpenAIServer` and `startScriptedAnthropicServer`, scripted with
 * the same steps (`reply`, `toolCall`, `toolCalls`, `httpError`,
 * `dropConnection`) and responders (`scriptConversation`). Call `close()` when
 * done (e.g. in `afterEach`).
 *
 * Serves `POST /v1beta/models/{model}:generateContent` (a response object),
 * `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (server-sent
 * events `data: <json>`, each a partial response; without `alt=sse`, one JSON
 * array of them), `GET /v1beta/models` and `GET /v1beta/models/{model}` (any
 * `v1…` version works alike); anything else gets a 404 `NOT_FOUND`. Bad JSON
 * gets a 400 `INVALID_ARGUMENT`. With `apiKey`, the `x-goog-api-key` header
 * (or `key` query parameter) must match: none gets a 403
 * `PERMISSION_DENIED`, a wrong one a 400 `INVALID_ARGUMENT` "API key not
 * valid" (before any step is used). Error bodies are `{ error: { code,
 * message, status, details? } }`; a step's `retryAfterSeconds` sends a
 * `retry-after` header, a `google.rpc.RetryInfo` detail (`retryDelay: "<n>s"`)
 * and `Please retry in <n>s.` after the default message. (The SDK's
 * `GoogleGenerativeAIFetchError` keeps `status`, `statusText` and
 * `errorDetails`, not the headers.)
 *
 * Each generate request takes the next queued step; when the queue is empty
 * the responder answers; without either the server answers 500 with
 * `scripted server: no response scripted for request #N (last user message: "...")`,
 * so a test fails loudly and never hangs.
 *
 * A reply answers with a text part (`finishReason` `STOP`, or the step's
 * `finishReason`: `length` → `MAX_TOKENS`); tool calls answer with
 * `functionCall` parts `{ name, args }` (`finishReason` `STOP`, no ids unless
 * the step gives them), after a text part when the step has text. Streams send
 * the text about one word per chunk and the calls in one chunk; the last chunk
 * has the `finishReason` and the `usageMetadata`.
 *
 * Usage defaults to deterministic counts: `promptTokenCount` = whitespace-
 * separated words of the system instruction and of every content's text and
 * function responses, `candidatesTokenCount` = words of the reply text plus
 * words of the function-call argument JSON (each at least 1).
 *
 * @example
 * const server = await startScriptedGeminiServer({ script: [reply('Hello!')] });
 * const model = new ChatGoogleGenerativeAI({ model: 'scripted-model', apiKey: 'test', maxRetries: 0, baseUrl: server.url });
 * const answer = await model.invoke('Hi');   // answer.content === 'Hello!'
 * expect(server.generations[0]?.lastUserText).toBe('Hi');
 * await server.close();
 */
export async function startScriptedGeminiServer(options: ScriptedGeminiServerOptions = {}): Promise<ScriptedGeminiServer> {
  return new ScriptedGemini(await listenLocal(options.port), options);
}
