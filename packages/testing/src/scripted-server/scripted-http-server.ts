import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readBody } from '../openai-server/http-io.js';
import { type MutableRecordedRequest, flattenHeaders, quoteShort } from '../openai-server/request-record.js';
import type { ScriptStep } from '../openai-server/types.js';

/** What answers a request when the queue is empty (each server's `Responder` takes its own record). */
export type StepResponder<R> = (request: R) => ScriptStep | undefined | Promise<ScriptStep | undefined>;

/** Why no step answers a request: the outcome to record and the message of the 500. */
export interface NoStep {
  outcome: 'responder error' | 'no script';
  message: string;
}

/** The request's body as JSON; `badJson` when it had text that does not parse (the body is then `undefined`). */
export interface ParsedBody {
  badJson: boolean;
}

/**
 * What every scripted provider server (OpenAI, Anthropic, Gemini, Ollama)
 * shares: 127.0.0.1, the queue of steps and the responder, the request log
 * (every request, in order, indexed from 1), the body read and parsed as
 * JSON, in-flight requests marked `aborted` or `server closed` when their
 * connection goes, and `close()` cutting everything off. A server adds its
 * API: the fields it records of a request ({@link ScriptedHttpServer.newRecord}),
 * its routes ({@link ScriptedHttpServer.route}) and its error body
 * ({@link ScriptedHttpServer.internalError}).
 */
export abstract class ScriptedHttpServer<R extends MutableRecordedRequest, Responder extends StepResponder<R> = StepResponder<R>> {
  readonly url: string;
  private queue: ScriptStep[];
  private responder: Responder | undefined;
  protected log: R[] = [];
  private nextIndex = 1;
  private readonly sockets = new Set<Socket>();
  private readonly inFlight = new Map<R, { controller: AbortController; res: ServerResponse }>();
  private closing: Promise<void> | undefined;

  /** @param urlPath what the client's base URL adds to the server's root (`/v1` for OpenAI's). */
  protected constructor(
    private readonly server: Server,
    options: { script?: ScriptStep[]; responder?: Responder },
    urlPath = '',
  ) {
    const { port } = server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}${urlPath}`;
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

  get requests(): readonly R[] {
    return [...this.log];
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

  /** The record of a new request: the common fields given, and what the API reads before the body (its path's parts, headers). */
  protected abstract newRecord(base: MutableRecordedRequest, req: IncomingMessage): R;

  /** Answers a request whose body has been read (`record.body`); `req` for what its URL says beyond the path. */
  protected abstract route(record: R, body: ParsedBody, res: ServerResponse, signal: AbortSignal, req: IncomingMessage): Promise<void>;

  /** Answers 500 with the API's error body and `message`, recording `outcome`. */
  protected abstract internalError(record: R, res: ServerResponse, message: string, outcome?: NoStep['outcome']): void;

  /** The step that answers `record`: the next queued one, else the responder's; else why there is none. */
  protected async takeStep(record: R): Promise<ScriptStep | NoStep> {
    let step = this.queue.shift();
    if (step === undefined && this.responder !== undefined) {
      try {
        step = await this.responder(record);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { outcome: 'responder error', message: `scripted server: the responder threw for request #${record.index}: ${reason}` };
      }
    }
    if (step === undefined) {
      return { outcome: 'no script', message: `scripted server: no response scripted for request #${record.index} (last user message: ${quoteShort(record.lastUserText, 200)})` };
    }
    return step;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const record = this.newRecord(
      {
        index: this.nextIndex++,
        method: req.method ?? 'GET',
        path: (req.url ?? '/').split('?')[0] ?? '/',
        headers: flattenHeaders(req.headers),
        body: undefined,
        at: Date.now(),
        outcome: 'pending',
      },
      req,
    );
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
      await this.route(record, { badJson }, res, controller.signal, req);
    } catch (error) {
      if (res.headersSent) res.destroy();
      else this.internalError(record, res, `scripted server: internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Whether a value is a {@link NoStep} rather than a step. */
export function isNoStep(value: ScriptStep | NoStep): value is NoStep {
  return !('kind' in value);
}

/** An HTTP server listening on 127.0.0.1 (`port`, default a free one). */
export async function listenLocal(port = 0): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
