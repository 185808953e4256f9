import { request } from 'node:http';

/** A response as {@link rawRequest} reads it: the status and the body (parsed when it is JSON). */
export interface RawReply {
  status: number;
  body: any;
}

/**
 * One request over node:http with exactly the given headers, `Host` included
 * (fetch always sends the URL's host), as another site's page or a rebinding
 * attack would send it.
 */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const method = options.method ?? 'GET';
    const body = options.body ?? '';
    const length = method === 'GET' ? {} : { 'content-length': String(Buffer.byteLength(body)) };
    const req = request(url, { method, headers: { ...length, ...options.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // not JSON: the text
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
