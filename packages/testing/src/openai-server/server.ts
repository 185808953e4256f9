import type { Server, ServerResponse } from 'node:http';
import { ScriptedHttpServer, isNoStep, listenLocal, type NoStep, type ParsedBody } from '../scripted-server/scripted-http-server.js';
import { answerStep } from './answer-step.js';
import { apiKeyProblem } from './auth.js';
import { openAIErrorBody } from './error-body.js';
import { sendJson } from './http-io.js';
import { DEFAULT_MODELS, decodeModelId, modelList, modelObject } from './models.js';
import { type MutableRecordedRequest, chatFields } from './request-record.js';
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

class ScriptedServer extends ScriptedHttpServer<MutableRecordedRequest, Responder> implements ScriptedOpenAIServer {
  constructor(
    server: Server,
    private readonly options: ScriptedOpenAIServerOptions,
  ) {
    super(server, options, '/v1');
  }

  get completions(): readonly RecordedRequest[] {
    return this.log.filter((record) => record.method === 'POST' && record.path === COMPLETIONS_PATH);
  }

  private get models(): readonly string[] {
    return this.options.models ?? DEFAULT_MODELS;
  }

  protected newRecord(base: MutableRecordedRequest): MutableRecordedRequest {
    return base;
  }

  private fail(record: MutableRecordedRequest, res: ServerResponse, status: number, message?: string, extra: { code?: string; outcome?: MutableRecordedRequest['outcome'] } = {}): void {
    record.outcome = extra.outcome ?? `error ${status}`;
    sendJson(res, status, openAIErrorBody(status, { ...(message === undefined ? {} : { message }), ...(extra.code ? { code: extra.code } : {}) }), headersOf(record));
  }

  protected internalError(record: MutableRecordedRequest, res: ServerResponse, message: string, outcome?: NoStep['outcome']): void {
    this.fail(record, res, 500, message, outcome ? { outcome } : {});
  }

  protected async route(record: MutableRecordedRequest, { badJson }: ParsedBody, res: ServerResponse, signal: AbortSignal): Promise<void> {
    const headers = headersOf(record);
    if (record.path === COMPLETIONS_PATH) Object.assign(record, chatFields(record.body));
    const keyProblem = this.options.apiKey === undefined ? undefined : apiKeyProblem(record.headers['authorization'], this.options.apiKey);
    if (keyProblem !== undefined) return this.fail(record, res, 401, keyProblem, { code: 'invalid_api_key' });
    if (record.method === 'GET' && record.path === MODELS_PATH) {
      record.outcome = 'models';
      return sendJson(res, 200, modelList(this.models), headers);
    }
    if (record.method === 'GET' && record.path.startsWith(`${MODELS_PATH}/`)) {
      const id = decodeModelId(record.path.slice(MODELS_PATH.length + 1));
      if (id === undefined || !this.models.includes(id)) {
        return this.fail(record, res, 404, `The model '${id ?? record.path}' does not exist`, { code: 'model_not_found' });
      }
      record.outcome = 'models';
      return sendJson(res, 200, modelObject(id), headers);
    }
    if (record.method !== 'POST' || record.path !== COMPLETIONS_PATH) {
      return this.fail(record, res, 404, `Unknown request URL: ${record.method} ${record.path}. The scripted server serves POST ${COMPLETIONS_PATH} and GET ${MODELS_PATH}.`);
    }
    if (badJson) {
      return this.fail(record, res, 400, 'We could not parse the JSON body of your request. The OpenAI API expects a JSON payload.');
    }
    const step = await this.takeStep(record);
    if (isNoStep(step)) return this.internalError(record, res, step.message, step.outcome);
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

/** The headers of every answer to a request: its id. */
function headersOf(record: MutableRecordedRequest): Record<string, string> {
  return { 'x-request-id': `req_scripted_${record.index}` };
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
  return new ScriptedServer(await listenLocal(options.port), options);
}
