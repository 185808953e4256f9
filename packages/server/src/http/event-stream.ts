import type { HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { RunEventLog } from '@orchestra/core';
import { EventStreamClient, type EventStreamLimits } from './event-stream-client.js';

/** Default time between heartbeat comments on an idle stream (proxies and browsers keep it open). */
export const HEARTBEAT_MS = 15_000;

/** Default bytes of live events a stream's client may have waiting before it is dropped: 64 KiB. */
export const DEFAULT_MAX_STREAM_QUEUE_BYTES = 64 * 1024;

/**
 * Streams a run's events as server-sent events: each recorded event with
 * its `id` (its line in `events.jsonl`) and `event` (its type), after
 * `lastId` (from `Last-Event-ID`, so a reconnecting client gets exactly
 * what it missed), then live ones as they happen; transient ones
 * (`llm.delta`, `questions`) without an id. A comment every heartbeat keeps
 * an idle stream open. When the run's process stops emitting, a final `end`
 * event tells the client not to reconnect. A client that falls behind (see
 * {@link EventStreamClient}) is dropped: under @hono/node-server its
 * connection is closed at once.
 */
export function eventStream(c: Context, log: RunEventLog, lastId: number, limits: EventStreamLimits): Response {
  const outgoing = (c.env as Partial<HttpBindings> | undefined)?.outgoing;
  const client = new EventStreamClient(log, lastId, limits, outgoing ? () => outgoing.destroy() : undefined);
  c.req.raw.signal.addEventListener('abort', () => client.close(), { once: true });
  return c.body(client.body, 200, {
    'Content-Type': 'text/event-stream',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    // @hono/node-server then streams the body as it comes instead of reading ahead for a Content-Length.
    'Transfer-Encoding': 'chunked',
  });
}
