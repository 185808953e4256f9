import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { LoggedEvent, RunEventLog } from '../runs/run-event-log.js';

const encoder = new TextEncoder();
/** Each live event's frame, made once for all the streams that send it. */
const frames = new WeakMap<LoggedEvent, Uint8Array>();

/** An event as an SSE frame (`event:`, `data:` — one line, as JSON has no raw newlines — and `id:`). */
function frameOf(event: LoggedEvent): Uint8Array {
  let frame = frames.get(event);
  if (!frame) {
    frame = encoder.encode(`event: ${event.type}\ndata: ${event.data}\n${event.id !== undefined ? `id: ${event.id}\n` : ''}\n`);
    frames.set(event, frame);
  }
  return frame;
}

/** Default time between heartbeat comments on an idle stream (proxies and browsers keep it open). */
export const HEARTBEAT_MS = 15_000;

/**
 * Streams a run's events as server-sent events: each recorded event with
 * its `id` (its line in `events.jsonl`) and `event` (its type), after
 * `lastId` (from `Last-Event-ID`, so a reconnecting client gets exactly
 * what it missed), then live ones as they happen; transient ones
 * (`llm.delta`, `questions`) without an id. A comment every `heartbeatMs`
 * keeps an idle stream open. When the run's process stops emitting, a final
 * `end` event tells the client not to reconnect.
 */
export function eventStream(c: Context, log: RunEventLog, lastId: number, heartbeatMs = HEARTBEAT_MS): Response {
  return streamSSE(c, async (stream) => {
    let writing: Promise<unknown> = stream.writeSSE({ event: 'hello', data: JSON.stringify({ last_event_id: lastId, recorded: log.size }), retry: 2000 });
    const send = (event: LoggedEvent) => {
      const frame = frameOf(event);
      writing = writing.then(() => stream.write(frame));
    };
    let finish: () => void = () => {};
    const over = new Promise<void>((resolve) => (finish = resolve));
    const unfollow = log.follow(lastId, {
      event: send,
      end: () => {
        writing = writing.then(() => stream.writeSSE({ event: 'end', data: JSON.stringify({ recorded: log.size }) }));
        void writing.finally(finish);
      },
    });
    const heartbeat = setInterval(() => {
      writing = writing.then(() => stream.write(': heartbeat\n\n'));
    }, heartbeatMs);
    stream.onAbort(() => finish());
    try {
      await over;
      await writing.catch(() => {});
    } finally {
      clearInterval(heartbeat);
      unfollow();
    }
  });
}
