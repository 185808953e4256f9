/**
 * The HTTP clients of `bench:server`, in a process of their own (forked by
 * server-main.ts with `serialization: 'advanced'`), so the server's process
 * does the server's work only. Commands arrive over IPC:
 *
 * - `clock`: answers with {@link sharedNow} (the parent estimates the offset
 *   between the two processes' clocks from the fastest round trips);
 * - `fanout`: opens `clients` event streams on one run, says `ready` once
 *   every one got its `hello`, and `fanout-done` with what each received
 *   once every one got `end`;
 * - `runs`: starts `count` simulated runs at once (concurrent POSTs), follows
 *   each one's events to `end`, and says `runs-done` with the wall time,
 *   then checks every run's state (`GET /pipelines/{id}`, not timed);
 * - `stall`: opens `clients` connections that ask for an event stream and
 *   never read a byte (the socket paused from the start), says `stalled`
 *   once every request is sent; `release` closes them and says `released`.
 */
import { Agent } from 'node:http';
import { connect, type Socket } from 'node:net';
import { followEvents, requestJson, sharedNow, type StreamRecord } from './server-sse.js';

/** Commands from the parent. */
export type ToChild =
  | { op: 'clock'; seq: number }
  | { op: 'fanout'; url: string; clients: number }
  | { op: 'runs'; url: string; source: string; count: number }
  | { op: 'stall'; url: string; clients: number }
  | { op: 'release' };

/** Replies to the parent. */
export type FromChild =
  | { op: 'clock'; seq: number; t: number }
  | { op: 'ready' }
  | { op: 'fanout-done'; streams: StreamRecord[] }
  | { op: 'runs-done'; ms: number; ids: string[]; states: string[] }
  | { op: 'stalled' }
  | { op: 'released' }
  | { op: 'error'; message: string };

const send = (message: FromChild) => process.send?.(message);

async function fanOut(url: string, clients: number): Promise<void> {
  // One connection per client, as separate browsers would have.
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const followers = Array.from({ length: clients }, () => followEvents(url, agent));
  await Promise.all(followers.map((f) => f.ready));
  send({ op: 'ready' });
  const streams = await Promise.all(followers.map((f) => f.done));
  agent.destroy();
  send({ op: 'fanout-done', streams });
}

async function startRuns(url: string, source: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const started = performance.now();
  const ids = await Promise.all(
    Array.from({ length: count }, async () => {
      const run = (await requestJson('POST', `${url}/pipelines`, { source, simulate: true }, 201, agent)) as { id: string };
      const seen = await followEvents(`${url}/pipelines/${encodeURIComponent(run.id)}/events`, agent).done;
      if (!seen.ended) throw new Error(`the event stream of run ${run.id} closed before its end event`);
      return run.id;
    }),
  );
  const ms = performance.now() - started;
  const states = await Promise.all(ids.map(async (id) => ((await requestJson('GET', `${url}/pipelines/${encodeURIComponent(id)}`, undefined, 200, agent)) as { state: string }).state));
  agent.destroy();
  send({ op: 'runs-done', ms, ids, states });
}

const stalled: Socket[] = [];

/** Connections that send `GET <url>` and never read: paused before the first byte arrives. */
async function stall(url: string, clients: number): Promise<void> {
  const target = new URL(url);
  await Promise.all(
    Array.from(
      { length: clients },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = connect(Number(target.port), target.hostname);
          socket.pause();
          socket.on('error', reject); // after the request: a reset by the server, nothing to do
          socket.once('connect', () => {
            socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`, () => resolve());
          });
          stalled.push(socket);
        }),
    ),
  );
  send({ op: 'stalled' });
}

function release(): void {
  for (const socket of stalled.splice(0)) socket.destroy();
  send({ op: 'released' });
}

process.on('message', (message: ToChild) => {
  const fail = (error: unknown) => send({ op: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  switch (message.op) {
    case 'clock':
      send({ op: 'clock', seq: message.seq, t: sharedNow() });
      break;
    case 'fanout':
      fanOut(message.url, message.clients).catch(fail);
      break;
    case 'runs':
      startRuns(message.url, message.source, message.count).catch(fail);
      break;
    case 'stall':
      stall(message.url, message.clients).catch(fail);
      break;
    case 'release':
      release();
      break;
  }
});
