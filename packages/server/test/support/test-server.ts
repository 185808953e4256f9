import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer, type ServerOptions } from '../../src/index.js';

/** The repository's fixtures directory. */
export const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

/** A fixture's DOT text. */
export function fixture(name: string): string {
  return readFileSync(join(FIXTURES, name), 'utf8');
}

/** A fresh runs directory. */
export function tempRunsDir(): string {
  return mkdtempSync(join(tmpdir(), 'orchestra-server-'));
}

/** A server on an ephemeral loopback port over `runsDir`, with a JSON client. */
export async function testServer(options: Partial<ServerOptions> = {}): Promise<TestServer> {
  const runsDir = options.runsDir ?? tempRunsDir();
  const server = await startServer({ port: 0, checkpointIntervalMs: 0, ...options, runsDir });
  return new TestServer(server, runsDir, options.token);
}

/** A response's status and JSON body. */
export interface JsonReply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export class TestServer {
  constructor(
    readonly server: RunningServer,
    readonly runsDir: string,
    private readonly token?: string,
  ) {}

  get url(): string {
    return this.server.url;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return { ...(this.token ? { authorization: `Bearer ${this.token}` } : {}), ...extra };
  }

  async get<T = any>(path: string, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
    const response = await fetch(this.url + path, { headers: this.headers(headers) });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  async post<T = any>(path: string, body: unknown = {}, headers: Record<string, string> = {}): Promise<JsonReply<T>> {
    const response = await fetch(this.url + path, { method: 'POST', headers: this.headers({ 'content-type': 'application/json', ...headers }), body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  }

  /** Starts a simulated run of DOT text; fails the test unless it was accepted. */
  async start(source: string, extra: Record<string, unknown> = {}): Promise<string> {
    const reply = await this.post('/pipelines', { source, simulate: true, ...extra });
    if (reply.status !== 201) throw new Error(`start refused: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.id as string;
  }

  /** Waits until the run has a pending question and returns the first. */
  async question(id: string, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.get(`/pipelines/${id}/questions`);
      if (body.questions?.length) return body.questions[0];
      if (Date.now() > deadline) throw new Error(`run ${id} asked nothing within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Waits until the run is in `state`. */
  async state(id: string, wanted: string, timeoutMs = 10_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { body } = await this.get(`/pipelines/${id}`);
      if (body.state === wanted && !body.live) return body;
      if (Date.now() > deadline) throw new Error(`run ${id} is ${body.state}${body.live ? ' (live)' : ''}, not ${wanted}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
