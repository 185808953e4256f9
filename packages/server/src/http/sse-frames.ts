import type { LoggedEvent } from '@orchestra/core';

const encoder = new TextEncoder();
/** Each live event's frame, made once for all the streams that send it. */
const frames = new WeakMap<LoggedEvent, Uint8Array>();

/** An event as an SSE frame (`event:`, `data:` — one line, as JSON has no raw newlines — and `id:`). */
export function formatFrame(event: LoggedEvent): Uint8Array {
  return encoder.encode(`event: ${event.type}\ndata: ${event.data}\n${event.id !== undefined ? `id: ${event.id}\n` : ''}\n`);
}

/** {@link formatFrame} made once per event object: a live event goes to every stream as the same bytes. */
export function sharedFrame(event: LoggedEvent): Uint8Array {
  let frame = frames.get(event);
  if (!frame) {
    frame = formatFrame(event);
    frames.set(event, frame);
  }
  return frame;
}

/** The first frame of a stream: where it starts, and how long a browser waits before it reconnects. */
export function helloFrame(lastId: number, recorded: number): Uint8Array {
  return encoder.encode(`event: hello\ndata: ${JSON.stringify({ last_event_id: lastId, recorded })}\nretry: 2000\n\n`);
}

/** The last frame: the run's process stopped emitting, do not reconnect. */
export function endFrame(recorded: number): Uint8Array {
  return encoder.encode(`event: end\ndata: ${JSON.stringify({ recorded })}\n\n`);
}

/** A comment that keeps an idle stream open through proxies. */
export const HEARTBEAT_FRAME: Uint8Array = encoder.encode(': heartbeat\n\n');
