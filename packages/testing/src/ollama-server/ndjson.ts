import type { ServerResponse } from 'node:http';

/** Starts a newline-delimited JSON stream (`application/x-ndjson`), as Ollama streams answers. */
export function startNdjson(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/x-ndjson', ...headers });
}

/** Writes one JSON value and a newline. Resolves once it is handed to the socket (or failed). */
export function writeLine(res: ServerResponse, value: unknown): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('close', done);
      resolve();
    };
    res.once('close', done);
    res.write(`${JSON.stringify(value)}\n`, done);
  });
}
