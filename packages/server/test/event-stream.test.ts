import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventStream } from '../src/http/event-stream.js';
import { RunEventLog } from '@orchestra/core';

/** An app serving one log's event stream, as the API's route does. */
function streamApp(log: RunEventLog, limits: { heartbeatMs?: number; maxQueueBytes: number }): Hono {
  const app = new Hono();
  app.get('/events', (c) => eventStream(c, log, Number(c.req.header('last-event-id') ?? '0'), { heartbeatMs: limits.heartbeatMs ?? 60_000, maxQueueBytes: limits.maxQueueBytes }));
  return app;
}

/** A recorded line of about `size` bytes. */
function line(n: number, size = 1000): string {
  return JSON.stringify({ type: 'stage.log', n, text: 'x'.repeat(size) });
}

/** The bytes of a recorded event's frame, as the stream writes it. */
function frameBytes(id: number, data: string): number {
  return Buffer.byteLength(`event: stage.log\ndata: ${data}\nid: ${id}\n\n`);
}

interface Parsed {
  event: string;
  id?: number;
  data: string;
}

function parseFrames(text: string): { events: Parsed[]; rest: string } {
  const events: Parsed[] = [];
  let rest = text;
  let cut: number;
  while ((cut = rest.indexOf('\n\n')) >= 0) {
    const block = rest.slice(0, cut);
    rest = rest.slice(cut + 2);
    if (block.startsWith(':')) continue;
    const event: Parsed = { event: 'message', data: '' };
    for (const l of block.split('\n')) {
      if (l.startsWith('event: ')) event.event = l.slice(7);
      else if (l.startsWith('data: ')) event.data = l.slice(6);
      else if (l.startsWith('id: ')) event.id = Number(l.slice(4));
    }
    events.push(event);
  }
  return { events, rest };
}

/** Reads a response body as it comes, parsing the frames. */
class BodyReader {
  readonly events: Parsed[] = [];
  failure: unknown;
  ended = false;
  private text = '';
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
    void this.pump();
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        const parsed = parseFrames(this.text + decoder.decode(value, { stream: true }));
        this.events.push(...parsed.events);
        this.text = parsed.rest;
      }
    } catch (error) {
      this.failure = error;
    }
    this.ended = true;
  }

  recordedIds(): number[] {
    return this.events.flatMap((e) => (e.id === undefined ? [] : [e.id]));
  }

  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await new Promise((r) => setTimeout(r, 2))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
  }
}

const servers: ServerType[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const server of servers.splice(0)) {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A real server (@hono/node-server on 127.0.0.1) over the app; its port. */
async function listen(app: Hono): Promise<number> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => resolve(info.port));
    servers.push(server);
  });
}

/** A raw connection that asks for the stream and collects what it reads (pause() stops reading). */
function rawStream(port: number, lastId?: number): { socket: Socket; text: () => string; closed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let text = '';
  let closed = false;
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  socket.on('close', () => (closed = true));
  socket.on('error', () => {});
  socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${lastId !== undefined ? `Last-Event-ID: ${lastId}\r\n` : ''}\r\n`);
  return { socket, text: () => text, closed: () => closed };
}

/**
 * The ids of the whole recorded events in an HTTP response's text, as an
 * EventSource counts them: a frame cut short by the connection's end does not
 * count. (Each chunk of the response holds whole frames: the chunk sizes sit
 * between frames, on lines of their own.)
 */
function idsIn(httpText: string): number[] {
  return [...httpText.matchAll(/^id: (\d+)\n\n/gm)].map((m) => Number(m[1]));
}

describe('event streams of clients that fall behind', () => {
  it('drops a client that reads nothing once its queue passes the bound; a client that reads is not dropped', async () => {
    const log = new RunEventLog();
    const bound = 8 * 1024;
    const app = streamApp(log, { maxQueueBytes: bound });
    const stalled = await app.request('/events'); // its body is never read
    const reading = new BodyReader((await app.request('/events')).body as ReadableStream<Uint8Array>);
    await until('the reading client has its hello', () => reading.events.length === 1);
    expect(log.followers).toBe(2);
    let queued = 0;
    for (let n = 1; n <= 20; n++) {
      const data = line(n);
      log.pushLines([data]);
      queued += frameBytes(n, data);
      // The stalled client's queue holds every event so far; past the bound it is let go.
      expect(log.followers, `after event ${n} (${queued} bytes queued)`).toBe(queued > bound ? 1 : 2);
      await until(`the reading client has event ${n}`, () => reading.recordedIds().at(-1) === n);
    }
    expect(reading.recordedIds()).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(reading.failure).toBeUndefined();
    // The dropped stream errors: its client sees the connection fail, and reconnects.
    const read = (stalled.body as ReadableStream<Uint8Array>).getReader();
    await expect(read.read()).rejects.toThrow('fell behind');
  });

  it('a burst larger than the bound reaches a client that waits for bytes; a long replay counts for nothing', async () => {
    const history = Array.from({ length: 300 }, (_, i) => line(i + 1));
    const log = new RunEventLog(history);
    const app = streamApp(log, { maxQueueBytes: 4 * 1024 });
    // 300 kB of history, replayed as the client takes it.
    const late = new BodyReader((await app.request('/events')).body as ReadableStream<Uint8Array>);
    await until('the replay is read', () => late.recordedIds().length === 300);
    // 50 kB in one turn of the event loop, while the client waits: sent at the end of the turn, not dropped.
    log.pushLines(Array.from({ length: 50 }, (_, i) => line(301 + i)));
    await until('the burst is read', () => late.recordedIds().length === 350);
    expect(late.recordedIds()).toEqual(Array.from({ length: 350 }, (_, i) => i + 1));
    expect(log.followers).toBe(1);
    expect(late.failure).toBeUndefined();
  });

  it('a client dropped on a real connection reconnects with its last id and gets exactly the events it missed', async () => {
    const log = new RunEventLog();
    const port = await listen(streamApp(log, { maxQueueBytes: 16 * 1024 }));
    const first = rawStream(port);
    await until('the stream is followed', () => log.followers === 1);
    for (let n = 1; n <= 5; n++) log.pushLines([line(n)]);
    await until('the first events are read', () => idsIn(first.text()).length === 5);
    // The client stops reading; the run goes on until the server lets the client go (its socket buffers fill first).
    first.socket.pause();
    let n = 5;
    while (log.followers === 1) {
      if (n > 5000) throw new Error('a client that reads nothing was never dropped');
      for (let k = 0; k < 10; k++) log.pushLines([line(++n, 16_000)]);
      await new Promise((r) => setImmediate(r));
    }
    // What the client's buffers held is still read; then the connection is closed.
    first.socket.resume();
    await until('the server closed the connection', first.closed);
    const got = idsIn(first.text());
    expect(got).toEqual(Array.from({ length: got.length }, (_, i) => i + 1));
    const lastId = got.at(-1) as number;
    expect(lastId).toBeLessThan(n);
    log.pushLines([line(++n)]);
    log.end();
    const again = rawStream(port, lastId);
    await until('the stream ends', () => again.text().includes('event: end'));
    expect(idsIn(again.text())).toEqual(Array.from({ length: n - lastId }, (_, i) => lastId + i + 1));
  });

  it('lets go of a client that closes, or that takes nothing for two heartbeats while events wait', async () => {
    const log = new RunEventLog();
    const app = streamApp(log, { maxQueueBytes: 1024 * 1024, heartbeatMs: 40 });
    const cancelled = new BodyReader((await app.request('/events')).body as ReadableStream<Uint8Array>);
    const idle = new BodyReader((await app.request('/events')).body as ReadableStream<Uint8Array>);
    const stalled = await app.request('/events');
    expect(log.followers).toBe(3);
    await cancelled.cancel();
    expect(log.followers).toBe(2);
    log.pushLines([line(1)]);
    // The stalled client's queue is far under the bound, but it took nothing for two heartbeats.
    await until('the stalled client is dropped', () => log.followers === 1);
    await expect((stalled.body as ReadableStream<Uint8Array>).getReader().read()).rejects.toThrow('fell behind');
    // A client that reads stays, with heartbeats while nothing happens.
    await new Promise((r) => setTimeout(r, 200));
    expect(log.followers).toBe(1);
    expect(idle.recordedIds()).toEqual([1]);
    await idle.cancel();
    expect(log.followers).toBe(0);

    // On a real connection, a client that goes away is let go too.
    const port = await listen(streamApp(log, { maxQueueBytes: 1024 * 1024 }));
    const client = rawStream(port);
    await until('the stream is followed', () => log.followers === 1);
    client.socket.destroy();
    await until('the closed client is let go', () => log.followers === 0);
  });
});
