import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, ServerRuns } from '../../src/index.js';
import { tempRunsDir, testServer, type TestServer } from '../support/test-server.js';

// Boundaries of two guards (issue 28): the token must match exactly, not just
// as far as the sender chose to send; the body limit lets its own size through
// and refuses one byte more, counted in bytes.

let runs: ServerRuns | undefined;
let runsDir: string | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await runs?.close();
  await server?.close();
  if (runsDir) rmSync(runsDir, { recursive: true, force: true });
  runs = undefined;
  runsDir = undefined;
  server = undefined;
});

/** The app over an empty runs directory, asked in-process (no port). */
function app(options: Parameters<typeof createApp>[1]) {
  runsDir = tempRunsDir();
  runs = new ServerRuns({ runsDir, checkpointIntervalMs: 0 });
  return createApp(runs, options);
}

describe('the token must be sent whole: a prefix, or the token and more, is refused', () => {
  const TOKEN = 'a-token-of-sufficient-length';
  const WRONG = [
    ['one character of it', TOKEN.slice(0, 1)],
    ['all of it but the last character', TOKEN.slice(0, -1)],
    ['it and one character more', `${TOKEN}x`],
  ] as const;

  function tokenApp() {
    const api = app({ token: TOKEN });
    return {
      get: (headers: Record<string, string> = {}) => api.request('/pipelines', { headers }),
      validate: (headers: Record<string, string>) =>
        api.request('/validate', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ source: 'digraph P {}' }) }),
    };
  }

  async function expectUnauthorized(response: Response, what: string, message = 'the token is wrong') {
    expect(response.status, what).toBe(401);
    expect(response.headers.get('www-authenticate'), what).toMatch(/^Bearer/);
    expect(((await response.json()) as any).error, what).toMatchObject({ code: 'ORCH_UNAUTHORIZED', message });
  }

  it('the exact token passes: in the header for GET and POST, in the cookie for GET', async () => {
    const { get, validate } = tokenApp();
    expect((await get({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await validate({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await get({ cookie: `orchestra_token=${TOKEN}` })).status).toBe(200);
  });

  it.each(WRONG)('%s in the Authorization header: 401 for GET and POST', async (what, sent) => {
    const { get, validate } = tokenApp();
    await expectUnauthorized(await get({ authorization: `Bearer ${sent}` }), `GET with ${what}`);
    await expectUnauthorized(await validate({ authorization: `Bearer ${sent}` }), `POST with ${what}`);
  });

  it.each(WRONG)('%s in the cookie on a GET: 401', async (what, sent) => {
    const { get } = tokenApp();
    await expectUnauthorized(await get({ cookie: `orchestra_token=${sent}` }), `cookie with ${what}`);
  });

  it.each(['Bearer ', 'Bearer', 'Bearer    '])('an empty bearer (%j) is no token: 401 for GET and POST', async (authorization) => {
    const { get, validate } = tokenApp();
    const none = 'this server needs a token: send Authorization: Bearer <token>';
    await expectUnauthorized(await get({ authorization }), 'GET', none);
    await expectUnauthorized(await validate({ authorization }), 'POST', none);
  });

  it('an empty cookie is no token: 401', async () => {
    const { get } = tokenApp();
    await expectUnauthorized(await get({ cookie: 'orchestra_token=' }), 'empty cookie', 'this server needs a token: send Authorization: Bearer <token>');
  });
});

describe('the body limit at its boundary: maxBodyBytes passes, one byte more is 413, counted in bytes', () => {
  const LIMIT = 64;

  /**
   * A POST /validate body of exactly `bytes` bytes: a valid request whose file
   * name is as many `pad` characters as fit, topped up with one-byte '-'.
   */
  function bodyOf(bytes: number, pad = '-'): string {
    const head = '{"source":"digraph P {}","file":"';
    const tail = '.dot"}';
    const room = bytes - Buffer.byteLength(head + tail);
    const many = Math.floor(room / Buffer.byteLength(pad));
    const body = head + pad.repeat(many) + '-'.repeat(room - many * Buffer.byteLength(pad)) + tail;
    expect(Buffer.byteLength(body)).toBe(bytes);
    JSON.parse(body);
    return body;
  }

  /** Asserts the body is accepted (the whole of it: its file name comes back in the diagnostics). */
  async function expectAccepted(response: Response, body: string, what: string) {
    expect(response.status, what).toBe(200);
    const reply = (await response.json()) as any;
    expect(reply.diagnostics.length, what).toBeGreaterThan(0);
    expect(reply.diagnostics[0].file, what).toBe(JSON.parse(body).file);
  }

  async function expectRefused(response: Response, what: string) {
    expect(response.status, what).toBe(413);
    expect(((await response.json()) as any).error, what).toMatchObject({ code: 'ORCH_BODY_TOO_LARGE', message: `the body is larger than ${LIMIT} bytes` });
  }

  // '-' is one byte, 'é' two, '€' three: 65 bytes padded with '€' are fewer than 64 characters.
  const pads = [
    ['ASCII', '-'],
    ['two-byte UTF-8', 'é'],
    ['three-byte UTF-8', '€'],
  ] as const;

  it('in-process, with a Content-Length and without one (streamed)', async () => {
    const api = app({ maxBodyBytes: LIMIT });
    const post = (body: string, withLength: boolean) =>
      api.request('/validate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(withLength ? { 'content-length': String(Buffer.byteLength(body)) } : {}) },
        body,
      });
    for (const withLength of [true, false]) {
      for (const [name, pad] of pads) {
        const at = bodyOf(LIMIT, pad);
        const over = bodyOf(LIMIT + 1, pad);
        const how = `${name}, ${withLength ? 'Content-Length' : 'streamed'}`;
        await expectAccepted(await post(at, withLength), at, `${LIMIT} bytes, ${how}`);
        await expectRefused(await post(over, withLength), `${LIMIT + 1} bytes, ${how}`);
      }
    }
    // Multi-byte characters are counted as bytes: 65 bytes in fewer characters than the limit are too many.
    const euros = bodyOf(LIMIT + 1, '€');
    expect(euros.length).toBeLessThan(LIMIT);
    await expectRefused(await post(euros, true), 'multi-byte with Content-Length, fewer characters than the limit');
    await expectRefused(await post(euros, false), 'multi-byte streamed, fewer characters than the limit');
  });

  it('over HTTP: a 64-byte POST /pipelines is not 413 (it is read and judged), a 65-byte one is', async () => {
    server = await testServer({ maxBodyBytes: LIMIT });
    const post = (path: string, body: string) => fetch(server!.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const atValidate = bodyOf(LIMIT, '-');
    await expectAccepted(await post('/validate', atValidate), atValidate, '64 bytes to /validate');
    await expectRefused(await post('/validate', bodyOf(LIMIT + 1, '-')), '65 bytes to /validate');
    // POST /pipelines with a padded source: at the limit it gets as far as the pipeline's checks (400), over it 413.
    const source = (bytes: number) => {
      const head = '{"source":"digraph P {';
      const tail = '}","simulate":true}';
      return head + ' '.repeat(bytes - Buffer.byteLength(head + tail)) + tail;
    };
    expect(Buffer.byteLength(source(LIMIT))).toBe(LIMIT);
    const at = await post('/pipelines', source(LIMIT));
    expect(at.status).not.toBe(413);
    expect(at.status).toBe(400);
    expect(((await at.json()) as any).error.code).toBe('ORCH_INVALID_PIPELINE');
    await expectRefused(await post('/pipelines', source(LIMIT + 1)), '65 bytes to /pipelines');
    const accentAt = bodyOf(LIMIT, 'é');
    await expectAccepted(await post('/validate', accentAt), accentAt, '64 bytes of é to /validate');
    const euros = bodyOf(LIMIT + 1, '€');
    expect(euros.length).toBeLessThan(LIMIT);
    await expectRefused(await post('/validate', euros), '65 bytes of € to /validate');
  });
});
