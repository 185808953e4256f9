import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody, sendJson } from '../openai-server/http-io.js';
import { DEFAULT_MODELS } from '../openai-server/models.js';
import { flattenHeaders, quoteShort } from '../openai-server/request-record.js';
import type { ScriptStep } from '../openai-server/types.js';
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

class ScriptedGemini implements ScriptedGeminiServer {
  readonly url: string;
  private queue: ScriptStep[] = [];
  private responder: GeminiResponder | undefined;
  private log: MutableGeminiRecord[] = [];
  private nextIndex = 1;
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Map<MutableGeminiRecord, { controller: AbortController; res: ServerResponse }>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly server: Server,
    private readonly options: ScriptedGeminiServerOptions,
  ) {
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    this.queue = [...(options.script ?? [])];
    this.responder = options.responder;
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      void this.handle(req, res);
    });
  }

  get requests(): readonly GeminiRecordedRequest[] {
    return [...this.log];
  }

  get generations(): readonly GeminiRecordedRequest[] {
    return this.log.filter(isGenerate);
  }

  get remaining(): number {
    return this.queue.length;
  }

  enqueue(...steps: ScriptStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  respondWith(responder: GeminiResponder | undefined): this {
    this.responder = responder;
    return this;
  }

  reset(): void {
    this.queue = [];
    this.responder = undefined;
    this.log = [];
    this.nextIndex = 1;
  }

  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve) => {
      for (const [record, { controller, res }] of this.inFlight) {
        if (!res.writableFinished && !record.outcome.startsWith('dropped')) record.outcome = 'server closed';
        controller.abort();
      }
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
    return this.closing;
  }

  private get models(): readonly string[] {
    return this.options.models ?? DEFAULT_MODELS;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const record: MutableGeminiRecord = {
      index: this.nextIndex++,
      method: req.method ?? 'GET',
      path: url.pathname,
      headers: flattenHeaders(req.headers),
      body: undefined,
      at: Date.now(),
      outcome: 'pending',
    };
    const route = routeOf(record.method, record.path);
    if (route.apiVersion !== undefined) record.apiVersion = route.apiVersion;
    if (route.kind === 'generate') {
      record.model = route.model;
      record.stream = route.stream;
      if (route.stream) record.sse = url.searchParams.get('alt') === 'sse';
    }
    this.log.push(record);
    const controller = new AbortController();
    this.inFlight.set(record, { controller, res });
    req.on('error', () => {});
    res.on('error', () => {});
    res.on('close', () => {
      this.inFlight.delete(record);
      if (!res.writableFinished && !record.outcome.startsWith('dropped')) {
        record.outcome = this.closing ? 'server closed' : 'aborted';
      }
      controller.abort();
    });
    const fail = (status: number, message: string, outcome: MutableGeminiRecord['outcome'] = `error ${status}`): void => {
      record.outcome = outcome;
      sendJson(res, status, geminiErrorBody(status, { message }));
    };
    try {
      const text = await readBody(req);
      if (text === undefined || controller.signal.aborted) return;
      let badJson = false;
      if (text.trim() !== '') {
        try {
          record.body = JSON.parse(text);
        } catch {
          badJson = true;
        }
      }
      if (route.kind === 'generate') Object.assign(record, generateFields(record.body));

      const refusal = this.options.apiKey === undefined ? undefined : keyRefusal(record.headers['x-goog-api-key'], url.searchParams.get('key'), this.options.apiKey);
      if (refusal !== undefined) {
        record.outcome = `error ${refusal.status}`;
        return sendJson(res, refusal.status, refusal.body);
      }
      switch (route.kind) {
        case 'list-models':
          record.outcome = 'models';
          return sendJson(res, 200, geminiModelList(this.models));
        case 'get-model':
          if (!this.models.includes(route.model)) return fail(404, `models/${route.model} is not found for API version ${route.apiVersion}.`);
          record.outcome = 'models';
          return sendJson(res, 200, geminiModelObject(route.model));
        case 'generate':
          if (badJson) return fail(400, 'Invalid JSON payload received. Unexpected token.');
          return await this.answerGenerate(record, res, controller.signal, fail);
        default:
          return fail(
            404,
            `Unknown request URL: ${record.method} ${record.path}. The scripted server serves POST /v1beta/models/{model}:generateContent, POST /v1beta/models/{model}:streamGenerateContent and GET /v1beta/models.`,
          );
      }
    } catch (error) {
      if (res.headersSent) res.destroy();
      else fail(500, `scripted server: internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async answerGenerate(
    record: MutableGeminiRecord,
    res: ServerResponse,
    signal: AbortSignal,
    fail: (status: number, message: string, outcome: MutableGeminiRecord['outcome']) => void,
  ): Promise<void> {
    let step = this.queue.shift();
    if (step === undefined && this.responder !== undefined) {
      try {
        step = await this.responder(record);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return fail(500, `scripted server: the responder threw for request #${record.index}: ${reason}`, 'responder error');
      }
    }
    if (step === undefined) {
      return fail(500, `scripted server: no response scripted for request #${record.index} (last user message: ${quoteShort(record.lastUserText, 200)})`, 'no script');
    }
    if (signal.aborted) return;
    await answerGeminiStep({ res, record, signal, defaultModel: this.models[0] ?? 'scripted-model' }, step);
  }
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
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return new ScriptedGemini(server, options);
}
