import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Waits `ms` milliseconds unless `signal` aborts first; resolves `true` when
 * the wait completed, `false` when it was cut short. Leaves no timer behind.
 */
export async function sleep(ms: number | undefined, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  if (ms === undefined || ms <= 0) return true;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/** Sends a complete JSON response. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** Starts a server-sent-event stream. */
export function startEventStream(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...headers,
  });
}

/**
 * Writes one server-sent event: `data: <data>`, preceded by `event: <name>`
 * when a name is given (the Anthropic API names every event; the OpenAI API
 * names none). Resolves once it is handed to the socket (or failed).
 */
export function writeEvent(res: ServerResponse, data: string, name?: string): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('close', done);
      resolve();
    };
    res.once('close', done);
    res.write(`${name === undefined ? '' : `event: ${name}\n`}data: ${data}\n\n`, done);
  });
}

/** Reads the whole request body as text; `undefined` when the client went away first. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  try {
    for await (const part of req) parts.push(part as Buffer);
  } catch {
    return undefined;
  }
  return Buffer.concat(parts).toString('utf8');
}
