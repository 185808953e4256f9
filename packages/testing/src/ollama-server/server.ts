import type { Server, ServerResponse } from 'node:http';
import { sendJson } from '../openai-server/http-io.js';
import { DEFAULT_MODELS } from '../openai-server/models.js';
import type { MutableRecordedRequest } from '../openai-server/request-record.js';
import type { ScriptStep } from '../openai-server/types.js';
import { ScriptedHttpServer, isNoStep, listenLocal, type NoStep, type ParsedBody } from '../scripted-server/scripted-http-server.js';
import { answerOllamaStep } from './answer-step.js';
import { bearerProblem } from './auth.js';
import { DEFAULT_OLLAMA_VERSION, ollamaModelList } from './models.js';
import { type MutableOllamaRecord, chatFields } from './request-record.js';
import type { OllamaRecordedRequest, OllamaResponder } from './types.js';

/** Options of {@link startScriptedOllamaServer}. */
export interface ScriptedOllamaServerOptions {
  /** Steps queued from the start (same as calling `enqueue`). */
  script?: ScriptStep[];
  /** Answers chat requests once the queue is empty (same as `respondWith`). */
  responder?: OllamaResponder;
  /** Port on 127.0.0.1; default 0, a random free port. */
  port?: number;
  /**
   * Ollama has no API key. When set, every request must carry
   * `Authorization: Bearer <bearer>` (as an Ollama behind a proxy may ask),
   * or gets a 401 `{ error: 'unauthorized: …' }`.
   */
  bearer?: string;
  /** Models listed by `GET /api/tags` (a name without a tag gets `:latest`); default `["scripted-model"]`. */
  models?: string[];
  /** `version` answered by `GET /api/version`; default `0.12.6`. */
  version?: string;
}

/** A running scripted Ollama server; see {@link startScriptedOllamaServer}. */
export interface ScriptedOllamaServer {
  /**
   * Base URL for the client: the server's root, such as `http://127.0.0.1:41234`
   * (`baseUrl` of `ChatOllama`, `host` of the `ollama` package,
   * `OLLAMA_BASE_URL`); the client appends `/api/chat`.
   */
  readonly url: string;
  /** Every request received, in order, including failed, dropped and in-flight ones. */
  readonly requests: readonly OllamaRecordedRequest[];
  /** Only the `POST /api/chat` requests. */
  readonly chats: readonly OllamaRecordedRequest[];
  /** Number of queued steps not used yet. */
  readonly remaining: number;
  /**
   * Appends steps to the queue; each chat request takes the first one
   * (concurrent requests in the order their bodies finish arriving).
   * Requests refused before that (401, 400) use no step.
   */
  enqueue(...steps: ScriptStep[]): this;
  /** Sets (or with `undefined` removes) the function that answers chat requests while the queue is empty. */
  respondWith(responder: OllamaResponder | undefined): this;
  /** Clears the queue, the responder and the request log (indexes start again at 1). */
  reset(): void;
  /**
   * Stops the server: in-flight requests are cut off (their outcome becomes
   * `server closed`), open sockets destroyed, timers cleared. Idempotent.
   */
  close(): Promise<void>;
}

const CHAT_PATH = '/api/chat';
const TAGS_PATH = '/api/tags';
const VERSION_PATH = '/api/version';

class ScriptedOllama extends ScriptedHttpServer<MutableOllamaRecord, OllamaResponder> implements ScriptedOllamaServer {
  constructor(
    server: Server,
    private readonly options: ScriptedOllamaServerOptions,
  ) {
    super(server, options);
  }

  get chats(): readonly OllamaRecordedRequest[] {
    return this.log.filter((record) => record.method === 'POST' && record.path === CHAT_PATH);
  }

  private get models(): readonly string[] {
    return this.options.models ?? DEFAULT_MODELS;
  }

  protected newRecord(base: MutableRecordedRequest): MutableOllamaRecord {
    return base as MutableOllamaRecord; // no API fields yet: they come with the body
  }

  private fail(record: MutableOllamaRecord, res: ServerResponse, status: number, message: string, outcome: MutableOllamaRecord['outcome'] = `error ${status}`): void {
    record.outcome = outcome;
    sendJson(res, status, { error: message });
  }

  protected internalError(record: MutableOllamaRecord, res: ServerResponse, message: string, outcome?: NoStep['outcome']): void {
    this.fail(record, res, 500, message, outcome);
  }

  protected async route(record: MutableOllamaRecord, { badJson }: ParsedBody, res: ServerResponse, signal: AbortSignal): Promise<void> {
    if (record.path === CHAT_PATH) Object.assign(record, chatFields(record.body));
    const problem = this.options.bearer === undefined ? undefined : bearerProblem(record.headers['authorization'], this.options.bearer);
    if (problem !== undefined) return this.fail(record, res, 401, problem);
    if (record.method === 'GET' && record.path === TAGS_PATH) {
      record.outcome = 'models';
      return sendJson(res, 200, ollamaModelList(this.models));
    }
    if (record.method === 'GET' && record.path === VERSION_PATH) {
      record.outcome = 'models';
      return sendJson(res, 200, { version: this.options.version ?? DEFAULT_OLLAMA_VERSION });
    }
    if (record.method !== 'POST' || record.path !== CHAT_PATH) {
      return this.fail(record, res, 404, `scripted server: unknown request URL: ${record.method} ${record.path}. It serves POST ${CHAT_PATH}, GET ${TAGS_PATH} and GET ${VERSION_PATH}.`);
    }
    if (badJson) return this.fail(record, res, 400, 'invalid JSON in the request body');
    if (record.model === undefined || record.model === '') return this.fail(record, res, 400, 'model is required');
    const step = await this.takeStep(record);
    if (isNoStep(step)) return this.internalError(record, res, step.message, step.outcome);
    if (signal.aborted) return;
    await answerOllamaStep({ res, record, signal, defaultModel: this.models[0] ?? 'scripted-model' }, step);
  }
}

/**
 * Starts an HTTP server on 127.0.0.1 that speaks Ollama's chat API and
 * answers from a script, so tests run the real client (LangChain's
 * `ChatOllama`, or the `ollama` package) without a network or a model: the
 * twin of `startScriptedOpenAIServer`, scripted with the same steps
 * (`reply`, `toolCall`, `toolCalls`, `httpError`, `dropConnection`) and
 * responders (`scriptConversation`). Call `close()` when done.
 *
 * Serves `POST /api/chat`, `GET /api/tags` (`{ models: [{ name, model,
 * modified_at, size, digest, details }] }`) and `GET /api/version`
 * (`{ version }`); anything else gets a 404. Bad JSON or a missing `model`
 * gets a 400; with `bearer`, a missing or wrong `Authorization` header gets a
 * 401 (before any step is used). Every error body is Ollama's
 * `{ error: '<message>' }`.
 *
 * A chat request streams unless its body has `"stream": false` (as Ollama
 * does; `ChatOllama` always streams): NDJSON lines (`application/x-ndjson`),
 * each `{ model, created_at, message: { role: 'assistant', content }, done:
 * false }` with about one word of text, the tool calls of a step in one line
 * of their own (`message.tool_calls: [{ function: { name, arguments } }]`),
 * and a last line `{ …, message: { role: 'assistant', content: '' }, done:
 * true, done_reason, prompt_eval_count, eval_count, …durations }`. Without
 * streaming, one object holds the whole message and the closing fields.
 *
 * Each chat request takes the next queued step; when the queue is empty the
 * responder answers; without either the server answers 500 with
 * `scripted server: no response scripted for request #N (last user message: "...")`,
 * so a test fails loudly and never hangs. `httpError(404)` answers
 * `model "<model>" not found, try pulling it first`, as Ollama does.
 *
 * Usage defaults to deterministic counts: `prompt_eval_count` = whitespace-
 * separated words of every message's content (system messages and tool
 * results included), `eval_count` = words of the reply text plus words of
 * the tool-call argument JSON (each at least 1).
 *
 * @example
 * const server = await startScriptedOllamaServer({ script: [reply('Hello!')] });
 * const model = new ChatOllama({ model: 'scripted-model', baseUrl: server.url });
 * const answer = await model.invoke('Hi');   // answer.content === 'Hello!'
 * expect(server.chats[0]?.lastUserText).toBe('Hi');
 * await server.close();
 */
export async function startScriptedOllamaServer(options: ScriptedOllamaServerOptions = {}): Promise<ScriptedOllamaServer> {
  return new ScriptedOllama(await listenLocal(options.port), options);
}
