import { afterEach, describe, expect, it } from 'vitest';
import { AllowedHosts, parseHostPort, serverHosts } from '../../src/http/allowed-hosts.js';
import { rawRequest } from '../support/raw-request.js';
import { fixture, testServer, type TestServer } from '../support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };

/** A run waiting at its gate, live in `server`. */
async function waitingRun(s: TestServer): Promise<string> {
  const id = await s.start(fixture('human-gate.dot'));
  await s.question(id);
  return id;
}

describe('requests from other sites are refused, with or without a token', () => {
  it('a cross-site form POST cannot cancel or resume a run; the same request as JSON from no page can', async () => {
    server = await testServer();
    const id = await waitingRun(server);
    const cancel = `${server.url}/pipelines/${id}/cancel`;
    const evil = await rawRequest(cancel, { method: 'POST', headers: { ...FORM, origin: 'https://evil.example' } });
    expect(evil.status).toBe(403);
    expect(evil.body.error.code).toBe('ORCH_ORIGIN_NOT_ALLOWED');
    expect(evil.body.error.message).toContain('"https://evil.example"');
    // Even sent as JSON (which a page can only do after a preflight), another origin is refused.
    expect((await rawRequest(cancel, { method: 'POST', headers: { ...JSON_TYPE, origin: 'https://evil.example' } })).status).toBe(403);
    expect((await rawRequest(`${server.url}/pipelines/${id}/resume`, { method: 'POST', headers: { ...FORM, origin: 'https://evil.example' } })).status).toBe(403);
    // A form or plain text without an Origin (a sandboxed page sends "null", an old browser nothing): not JSON, refused.
    const refusals: [Record<string, string>, number][] = [
      [FORM, 415],
      [{ 'content-type': 'text/plain' }, 415],
      [{ 'content-type': 'application/json-patch+json' }, 415],
      [{}, 415],
      [{ ...FORM, origin: 'null' }, 403],
    ];
    for (const [headers, status] of refusals) expect((await rawRequest(cancel, { method: 'POST', headers })).status, JSON.stringify(headers)).toBe(status);
    const notJson = await rawRequest(cancel, { method: 'POST', headers: FORM });
    expect(notJson.body.error).toEqual({ code: 'ORCH_BAD_REQUEST', message: 'send requests that change something as JSON (Content-Type: application/json), even with an empty body' });
    expect((await server.get(`/pipelines/${id}`)).body).toMatchObject({ state: 'running', live: true });
    // JSON with an empty body, from the server's own page (its origin) or from no page at all: cancelled.
    const own = await rawRequest(cancel, { method: 'POST', headers: { ...JSON_TYPE, origin: server.url } });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    await server.state(id, 'stopped');
    const resumed = await rawRequest(`${server.url}/pipelines/${id}/resume`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
  });

  it('every request must name this server in Host (DNS rebinding): 421 otherwise, for the API and the page alike', async () => {
    server = await testServer();
    const { port } = server.server;
    for (const path of ['/pipelines', '/', '/assets/app.js', '/pipelines/x/events']) {
      const reply = await rawRequest(server.url + path, { headers: { host: `evil.example:${port}` } });
      expect(reply.status, path).toBe(421);
      expect(reply.body.error.code, path).toBe('ORCH_HOST_NOT_ALLOWED');
    }
    const start = await rawRequest(`${server.url}/pipelines`, { method: 'POST', headers: { ...JSON_TYPE, host: 'evil.example' }, body: JSON.stringify({ source: fixture('simple.dot'), simulate: true }) });
    expect(start.status).toBe(421);
    expect(start.body.error.message).toBe('this server does not answer to the host "evil.example"; if that is a name of this server, start it with --allowed-host evil.example');
    expect((await server.get('/pipelines')).body.runs).toEqual([]);
    // Its address and localhost, with its port, are fine; another port or no Host is not.
    expect((await rawRequest(`${server.url}/pipelines`, { headers: { host: `127.0.0.1:${port}` } })).status).toBe(200);
    expect((await rawRequest(`${server.url}/pipelines`, { headers: { host: `LOCALHOST:${port}` } })).status).toBe(200);
    expect((await rawRequest(`${server.url}/pipelines`, { headers: { host: `localhost:${port + 1}` } })).status).toBe(421);
    expect((await rawRequest(`${server.url}/pipelines`, { headers: { host: 'localhost' } })).status).toBe(421);
  });

  it('allowedHosts (--allowed-host) adds names: without a port any port, with one that port; their origins may change things', async () => {
    server = await testServer({ allowedHosts: ['orchestra.test', 'box.lan:8080'] });
    const url = `${server.url}/pipelines`;
    expect((await rawRequest(url, { headers: { host: 'orchestra.test' } })).status).toBe(200);
    expect((await rawRequest(url, { headers: { host: 'orchestra.test:443' } })).status).toBe(200);
    expect((await rawRequest(url, { headers: { host: 'box.lan:8080' } })).status).toBe(200);
    expect((await rawRequest(url, { headers: { host: 'box.lan:8081' } })).status).toBe(421);
    const body = JSON.stringify({ source: fixture('simple.dot'), simulate: true });
    expect((await rawRequest(url, { method: 'POST', headers: { ...JSON_TYPE, host: 'orchestra.test', origin: 'https://orchestra.test' }, body })).status).toBe(201);
    expect((await rawRequest(url, { method: 'POST', headers: { ...JSON_TYPE, origin: 'http://box.lan:8080' }, body })).status).toBe(201);
    expect((await rawRequest(url, { method: 'POST', headers: { ...JSON_TYPE, origin: 'http://box.lan' }, body })).status).toBe(403);
  });

  it('the --cors origin may change things, other origins may not; a token changes none of it', async () => {
    const token = 'a-token-of-twenty-chars';
    server = await testServer({ corsOrigin: 'https://dash.example', token });
    const id = await waitingRun(server);
    const auth = { authorization: `Bearer ${token}` };
    const answer = `${server.url}/pipelines/${id}/questions/review_gate.1/answer`;
    const body = JSON.stringify({ answer: 'A' });
    const evil = await rawRequest(answer, { method: 'POST', headers: { ...auth, ...JSON_TYPE, origin: 'https://evil.example' }, body });
    expect(evil.status).toBe(403);
    expect((await rawRequest(answer, { method: 'POST', headers: { ...auth, ...FORM, origin: 'https://dash.example' }, body: 'answer=A' })).status).toBe(415);
    expect((await rawRequest(answer, { method: 'POST', headers: { ...auth, ...JSON_TYPE, host: 'evil.example' }, body })).status).toBe(421);
    const dash = await rawRequest(answer, { method: 'POST', headers: { ...auth, ...JSON_TYPE, origin: 'https://dash.example' }, body });
    expect(dash.status, JSON.stringify(dash.body)).toBe(200);
    await server.state(id, 'completed');
  });
});

describe('allowed hosts', () => {
  it('reads host, host:port and IPv6 forms, and refuses anything else', () => {
    expect(parseHostPort('LocalHost:7070')).toEqual({ name: 'localhost', port: 7070 });
    expect(parseHostPort('[::1]:7070')).toEqual({ name: '[::1]', port: 7070 });
    expect(parseHostPort('::1')).toEqual({ name: '[::1]' });
    expect(parseHostPort('box.lan')).toEqual({ name: 'box.lan' });
    for (const bad of ['', 'a b', 'host:', 'host:0', 'host:70000', 'host:12x', 'http://host', 'host/path', '[::1]x']) expect(parseHostPort(bad), bad).toBeUndefined();
    expect(() => new AllowedHosts(['http://box.lan'])).toThrow(RangeError);
  });

  it('a server answers to its address and localhost with its port; on 0.0.0.0 to every interface address', () => {
    expect(serverHosts('127.0.0.1', '127.0.0.1', 7070)).toEqual(['localhost:7070', '127.0.0.1:7070']);
    expect(serverHosts('::1', '::1', 7070, ['box.lan'])).toEqual(['localhost:7070', '[::1]:7070', 'box.lan']);
    const all = new AllowedHosts(serverHosts('0.0.0.0', '0.0.0.0', 7070));
    expect(all.allowsHost('127.0.0.1:7070')).toBe(true);
    expect(all.allowsHost('evil.example:7070')).toBe(false);
    const hosts = new AllowedHosts(['localhost:80', 'secure.test:443']);
    expect(hosts.allowsHost('localhost')).toBe(true);
    expect(hosts.allowsOrigin('http://localhost')).toBe(true);
    expect(hosts.allowsOrigin('https://secure.test')).toBe(true);
    expect(hosts.allowsOrigin('https://localhost')).toBe(false);
    expect(hosts.allowsOrigin('null')).toBe(false);
  });
});
