import { request, type Agent, type IncomingMessage } from 'node:http';

/**
 * A clock the benchmark's processes share: milliseconds since the epoch
 * with `performance.now()`'s resolution (`performance.timeOrigin` is the
 * wall-clock time the process started). Two processes on one machine read
 * the same time to within their start-up readings of the wall clock; the
 * benchmark measures the remaining offset over IPC and corrects for it.
 */
export function sharedNow(): number {
  return performance.timeOrigin + performance.now();
}

/** What one SSE client saw: the id of each recorded event, and when its chunk arrived ({@link sharedNow}). */
export interface StreamRecord {
  ids: number[];
  at: number[];
  /** True when the stream's `end` event arrived. */
  ended: boolean;
}

/** One open event stream. */
export interface EventFollower {
  /** Resolves when the `hello` event arrived (the server follows the run's log from then on). */
  ready: Promise<void>;
  /** Resolves with what arrived once the `end` event did (or the connection closed). */
  done: Promise<StreamRecord>;
  /** Closes the connection. */
  close(): void;
}

/**
 * Follows `GET <url>` as server-sent events over node:http. Every chunk
 * is timestamped as it is read from the socket, before it is parsed; each
 * event with an `id:` line records that time. Stops at the `end` event.
 */
export function followEvents(url: string, agent?: Agent): EventFollower {
  const record: StreamRecord = { ids: [], at: [], ended: false };
  let markReady: () => void = () => {};
  let failReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    markReady = resolve;
    failReady = reject;
  });
  let response: IncomingMessage | undefined;
  const req = request(url, { headers: { accept: 'text/event-stream' }, ...(agent ? { agent } : {}) });
  const done = new Promise<StreamRecord>((resolve, reject) => {
    req.once('error', (error) => {
      failReady(error);
      reject(error);
    });
    req.once('response', (res) => {
      response = res;
      if (res.statusCode !== 200) {
        const error = new Error(`GET ${url}: HTTP ${res.statusCode}`);
        failReady(error);
        reject(error);
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const t = sharedNow();
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) !== -1) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          let id: number | undefined;
          for (const line of frame.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('id:')) id = Number(line.slice(3).trim());
          }
          if (event === 'hello') markReady();
          else if (event === 'end') {
            record.ended = true;
            res.destroy();
            resolve(record);
            return;
          } else if (id !== undefined) {
            record.ids.push(id);
            record.at.push(t);
          }
        }
      });
      res.once('close', () => resolve(record));
    });
    req.end();
  });
  return { ready, done, close: () => (response ? response.destroy() : req.destroy()) };
}

/** Sends a JSON request and parses the JSON answer; throws unless the status is `expect`. */
export function requestJson(method: 'GET' | 'POST', url: string, body: unknown, expect: number, agent?: Agent): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(url, {
      method,
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      ...(agent ? { agent } : {}),
    });
    req.once('error', reject);
    req.once('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.once('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        if (res.statusCode !== expect) {
          reject(new Error(`${method} ${url}: HTTP ${res.statusCode} (expected ${expect}): ${text.slice(0, 500)}`));
          return;
        }
        try {
          resolve(JSON.parse(text));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.end(payload);
  });
}
