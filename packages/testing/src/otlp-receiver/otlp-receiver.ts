import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { spansFromJson } from './otlp-json.js';
import { spansFromProtobuf } from './otlp-protobuf.js';
import type { ReceivedSpan } from './received-span.js';

/** One export request an {@link OtlpReceiver} received. */
export interface OtlpRequest {
  path: string;
  /** `application/json` or `application/x-protobuf`. */
  contentType: string;
  headers: Record<string, string>;
  /** The body's size in bytes. */
  bytes: number;
  /** Its spans, decoded (JSON or protobuf). */
  spans: ReceivedSpan[];
}

/** Options of {@link startOtlpReceiver}. */
export interface OtlpReceiverOptions {
  /**
   * How it answers export requests: `ok` (200, the spans kept), `error`
   * (HTTP 500, nothing kept: a collector that refuses them) or `hang`
   * (never answers: a collector that is stuck). Default `ok`; change it
   * later with {@link OtlpReceiver.respond}.
   */
  respond?: 'ok' | 'error' | 'hang';
}

/** An OTLP/HTTP trace collector on 127.0.0.1 for tests: it keeps the spans it is sent. */
export interface OtlpReceiver {
  /** The endpoint, as `OTEL_EXPORTER_OTLP_ENDPOINT` takes it (`http://127.0.0.1:<port>`). */
  readonly url: string;
  /** The traces URL (`<url>/v1/traces`), as `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` takes it. */
  readonly tracesUrl: string;
  /** Every export request, in order (those answered `error` or `hang` too). */
  readonly requests: readonly OtlpRequest[];
  /** The spans kept, in the order they arrived. */
  spans(): ReceivedSpan[];
  /** Resolves once `count` spans are kept (or `predicate` holds for the spans kept); rejects after `timeoutMs` (default 5000). */
  waitForSpans(count: number | ((spans: ReceivedSpan[]) => boolean), timeoutMs?: number): Promise<ReceivedSpan[]>;
  /** Changes how it answers from now on. */
  respond(mode: NonNullable<OtlpReceiverOptions['respond']>): void;
  /** Stops it, cutting off every connection (a hanging request included). */
  close(): Promise<void>;
}

function flatten(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Starts an OTLP/HTTP receiver on 127.0.0.1 (a free port): `POST /v1/traces`
 * with an OTLP/JSON or OTLP/protobuf body (gzip not accepted: the
 * OpenTelemetry JS exporters send none unless asked). Point
 * `OTEL_EXPORTER_OTLP_ENDPOINT` at {@link OtlpReceiver.url} and read what
 * arrived with {@link OtlpReceiver.spans}.
 *
 * @example
 * ```ts
 * import { startOtlpReceiver } from '@orchestra/testing';
 *
 * const receiver = await startOtlpReceiver();
 * process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
 * // ... run something that exports traces, then:
 * const spans = await receiver.waitForSpans((all) => all.some((s) => s.name.startsWith('run ')));
 * await receiver.close();
 * ```
 */
export async function startOtlpReceiver(options: OtlpReceiverOptions = {}): Promise<OtlpReceiver> {
  let mode = options.respond ?? 'ok';
  const requests: OtlpRequest[] = [];
  const kept: ReceivedSpan[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readAll(req);
      const path = (req.url ?? '/').split('?')[0] as string;
      if (req.method !== 'POST' || path !== '/v1/traces') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      const contentType = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      let spans: ReceivedSpan[];
      try {
        spans = contentType === 'application/json' ? spansFromJson(JSON.parse(body.toString('utf8'))) : spansFromProtobuf(body);
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`cannot read the request: ${(error as Error).message}`);
        return;
      }
      requests.push({ path, contentType, headers: flatten(req.headers), bytes: body.length, spans });
      if (mode === 'hang') return; // never answered; close() cuts it off
      if (mode === 'error') {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('refused by the test');
        return;
      }
      kept.push(...spans);
      for (const wake of waiters) wake();
      if (contentType === 'application/json') res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    tracesUrl: `${url}/v1/traces`,
    requests,
    spans: () => [...kept],
    respond: (next) => {
      mode = next;
    },
    waitForSpans(count, timeoutMs = 5000) {
      const done = typeof count === 'number' ? (spans: ReceivedSpan[]) => spans.length >= count : count;
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!done(kept)) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve([...kept]);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`the OTLP receiver got ${kept.length} span(s) in ${timeoutMs} ms, not what was waited for: ${kept.map((s) => s.name).join(', ')}`));
        }, timeoutMs);
        if (!check()) waiters.add(wake);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
