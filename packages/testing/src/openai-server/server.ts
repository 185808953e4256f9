import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { answerStep } from './answer-step.js';
import { apiKeyProblem } from './auth.js';
import { openAIErrorBody } from './error-body.js';
import { readBody, sendJson } from './http-io.js';
import { DEFAULT_MODELS, decodeModelId, modelList, modelObject } from './models.js';
import { type MutableRecordedRequest, chatFields, flattenHeaders, quoteShort } from './request-record.js';
import type { RecordedRequest, Responder, ScriptStep } from './types.js';

/** Options of {@link startScriptedOpenAIServer}. */
export interface ScriptedOpenAIServerOptions {
  /** Steps queued from the start (same as calling `enqueue`). */
  script?: ScriptStep[];
  /** Answers chat completions once the queue is empty (same as `respondWith`). */
  responder?: Responder;
  /** Port on 127.0.0.1; default 0, a random free port. */
  port?: number;
  /** When set, every request must carry `Authorization: Bearer <apiKey>`, or gets a 401. */
  apiKey?: string;
  /** Model ids listed by `GET /v1/models`; default `["scripted-model"]`. */
  models?: string[];
}

/** A running scripted server; see {@link startScriptedOpenAIServer}. */
export interface ScriptedOpenAIServer {
  /** Base URL for the client (`configuration.baseURL`, `OPENAI_BASE_URL`), e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  /** Every request received, in order, including failed, dropped and in-flight ones. */
  readonly requests: readonly RecordedRequest[];
  /** Only the `POST /v1/chat/completions` requests. */
  readonly completions: readonly RecordedRequest[];
  /** Number of queued steps not used yet. */
  readonly remaining: number;
  /**
   * Appends steps to the queue; each chat-completion request takes the first
   * one (concurrent requests in the order their bodies finish arriving).
   * Requests refused before that (401, 400 bad JSON) use no step.
   */
  enqueue(...steps: ScriptStep[]): this;
  /** Sets (or with `undefined` removes) the function that answers chat completions while the queue is empty. */
  respondWith(responder: Responder | undefined): this;
  /** Clears the queue, the responder and the request log (indexes start again at 1). */
  reset(): void;
  /**
   * Stops the server: in-flight requests are cut off (their outcome becomes
   * `server closed`), open sockets destroyed, timers cleared. Idempotent.
   */
  close(): Promise<void>;
}

const COMPLETIONS_PATH = '/v1/chat/completions';
const MODELS_PATH = '/v1/models';

class ScriptedServer implements ScriptedOpenAIServer {
  readonly url: string;
  private queue: ScriptStep[] = [];
  private responder: Responder | undefined;
  private log: MutableRecordedRequest[] = [];
  private nextIndex = 1;
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Map<MutableRecordedRequest, { controller: AbortController; res: ServerResponse }>();
  private closing: Promise<void> | undefined;

  constructor(
    private readonly server: Server,
    private readonly options: ScriptedOpenAIServerOptions,
  ) {
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}/v1`;
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

  get requests(): readonly RecordedRequest[] {
    return [...this.log];
  }

  get completions(): readonly RecordedRequest[] {
    return this.log.filter((record) => record.method === 'POST' && record.path === COMPLETIONS_PATH);
  }

  get remaining(): number {
    return this.queue.length;
  }

  enqueue(...steps: ScriptStep[]): this {
    this.queue.push(...steps);
    return this;
  }

  respondWith(responder: Responder | undefined): this {
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
    const record: MutableRecordedRequest = {
      index: this.nextIndex++,
      method: req.method ?? 'GET',
      path: (req.url ?? '/').split('?')[0] ?? '/',
      headers: flattenHeaders(req.headers),
      body: undefined,
      at: Date.now(),
      outcome: 'pending',
    };
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
    const headers = { 'x-request-id': `req_scripted_${record.index}` };
    const fail = (status: number, message?: string, extra: { code?: string; outcome?: MutableRecordedRequest['outcome'] } = {}): void => {
      record.outcome = extra.outcome ?? `error ${status}`;
      sendJson(res, status, openAIErrorBody(status, { ...(message === undefined ? {} : { message }), ...(extra.code ? { code: extra.code } : {}) }), headers);
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
      if (record.path === COMPLETIONS_PATH) Object.assign(record, chatFields(record.body));

      const keyProblem = this.options.apiKey === undefined ? undefined : apiKeyProblem(record.headers['authorization'], this.options.apiKey);
      if (keyProblem !== undefined) return fail(401, keyProblem, { code: 'invalid_api_key' });
      if (record.method === 'GET' && record.path === MODELS_PATH) {
        record.outcome = 'models';
        return sendJson(res, 200, modelList(this.models), headers);
      }
      if (record.method === 'GET' && record.path.startsWith(`${MODELS_PATH}/`)) {
        const id = decodeModelId(record.path.slice(MODELS_PATH.length + 1));
        if (id === undefined || !this.models.includes(id)) {
          return fail(404, `The model '${id ?? record.path}' does not exist`, { code: 'model_not_found' });
        }
        record.outcome = 'models';
        return sendJson(res, 200, modelObject(id), headers);
      }
      if (record.method !== 'POST' || record.path !== COMPLETIONS_PATH) {
        return fail(404, `Unknown request URL: ${record.method} ${record.path}. The scripted server serves POST ${COMPLETIONS_PATH} and GET ${MODELS_PATH}.`);
      }
      if (badJson) {
        return fail(400, 'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.');
      }
      await this.answerCompletion(record, res, controller.signal, headers, fail);
    } catch (error) {
      if (res.headersSent) res.destroy();
      else fail(500, `scripted server: internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async answerCompletion(
    record: MutableRecordedRequest,
    res: ServerResponse,
    signal: AbortSignal,
    headers: Record<string, string>,
    fail: (status: number, message: string, extra: { outcome: MutableRecordedRequest['outcome'] }) => void,
  ): Promise<void> {
    let step = this.queue.shift();
    if (step === undefined && this.responder !== undefined) {
      try {
        step = await this.responder(record);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return fail(500, `scripted server: the responder threw for request #${record.index}: ${reason}`, { outcome: 'responder error' });
      }
    }
    if (step === undefined) {
      return fail(500, `scripted server: no response scripted for request #${record.index} (last user message: ${quoteShort(record.lastUserText, 200)})`, {
        outcome: 'no script',
      });
    }
    if (signal.aborted) return;
    const body = record.body as { stream_options?: { include_usage?: unknown } } | undefined;
    await answerStep(
      {
        res,
        record,
        signal,
        includeUsage: record.stream === true && body?.stream_options?.include_usage === true,
        defaultModel: this.models[0] ?? 'scripted-model',
        headers,
      },
      step,
    );
  }
}

/**
 * Starts an OpenAI-compatible HTTP server on 127.0.0.1 that answers from a
 * script, so tests run the real OpenAI client (e.g. LangChain's `ChatOpenAI`)
 * without a network. Call `close()` when done (e.g. in `afterEach`).
 *
 * Serves `POST /v1/chat/completions` (JSON or server-sent-event streaming,
 * with `stream_options.include_usage`), `GET /v1/models` and
 * `GET /v1/models/{id}`; anything else gets an OpenAI-shaped 404. Bad JSON
 * gets a 400; with `apiKey`, a missing or wrong `Authorization` header gets a
 * 401 (before any step is used).
 *
 * Each chat completion takes the next queued step; when the queue is empty
 * the responder answers; without either the server answers 500 with
 * `scripted server: no response scripted for request #N (last user message: "...")`,
 * so a test fails loudly and never hangs.
 *
 * Usage defaults to deterministic counts: prompt tokens = whitespace-separated
 * words over all message contents, completion tokens = words of the reply text
 * plus words of the tool-call argument JSON (each at least 1).
 *
 * @example
 * const server = await startScriptedOpenAIServer({ script: [reply('Hello!')] });
 * const model = new ChatOpenAI({ model: 'scripted-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: server.url } });
 * const answer = await model.invoke('Hi');   // answer.content === 'Hello!'
 * expect(server.completions[0]?.lastUserText).toBe('Hi');
 * await server.close();
 */
export async function startScriptedOpenAIServer(options: ScriptedOpenAIServerOptions = {}): Promise<ScriptedOpenAIServer> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return new ScriptedServer(server, options);
}
