import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guardNetwork, startScriptedOpenAIServer, type NetworkGuard, type ScriptedOpenAIServer } from '@orchestra/testing';
import { doctorCommand, type DoctorFlags } from '../src/commands/doctor.js';
import { tempDir } from './cli-helpers.js';

let guard: NetworkGuard;
const closers: (() => Promise<void>)[] = [];

beforeAll(() => {
  guard = guardNetwork();
});
afterAll(() => {
  guard.restore();
  expect(guard.refused).toEqual([]);
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function scripted(options: Parameters<typeof startScriptedOpenAIServer>[0] = {}): Promise<ScriptedOpenAIServer> {
  const server = await startScriptedOpenAIServer(options);
  closers.push(() => server.close());
  return server;
}

/** A server on 127.0.0.1 that answers every request with `status`, `type` and `body`; its base URL ends in /v1. */
async function rawServer(status: number, type: string, body: string): Promise<string> {
  const server: Server = createServer((_req, res) => res.writeHead(status, { 'content-type': type }).end(body));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(() => new Promise<void>((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** Runs `orchestra doctor` in this process with exactly `env` (no home configuration), in `cwd`. */
async function doctor(env: Record<string, string>, options: DoctorFlags = {}, cwd = tempDir()): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = { stdout: (t: string) => void (stdout += t), stderr: (t: string) => void (stderr += t) };
  const code = await doctorCommand(undefined, options, io, { env, cwd, home: tempDir() });
  return { code, stdout, stderr };
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('orchestra doctor: every configured endpoint is checked, with or without a model', () => {
  it('OPENAI_BASE_URL alone: asks the endpoint for its models (no key sent) and lists them; the missing model stays a problem', async () => {
    const server = await scripted({ models: ['llama3.2', 'qwen2.5'] });
    const r = await doctor({ OPENAI_BASE_URL: server.url });
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models']);
    expect(server.requests[0]?.headers['authorization']).toBeUndefined();
    expect(r.stdout).toMatch(new RegExp(`\\n  ✓ openai ${escapeRe(server.url)}: answered in \\d+ ms, 2 model\\(s\\)\\n      - llama3\\.2\\n      - qwen2\\.5\\n`));
    expect(r.stdout).toContain('✗ node (default) has no model: pass --model <name>');
    expect(r.code).toBe(1);
  });

  it('sends the configured key, and with --model the run is ok', async () => {
    const server = await scripted({ apiKey: 'sk-local-0123456789', models: ['m1'] });
    const r = await doctor({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-local-0123456789' }, { model: 'm1' });
    expect(r.stdout).toMatch(/✓ openai .*: answered in \d+ ms, 1 model\(s\), including m1\n {6}- m1\n/);
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-local-0123456789');
    expect(r.stdout).toContain('\nok\n');
    expect(r.code).toBe(0);
  });

  it('checks --base-url with nothing else configured', async () => {
    const server = await scripted({ models: ['m1'] });
    const r = await doctor({}, { baseUrl: server.url });
    expect(server.requests).toHaveLength(1);
    expect(r.stdout).toContain(`✓ openai ${server.url}: answered in`);
    // Not "no provider is configured": the flag configures one.
    expect(r.stdout).toContain('✗ node (default) has no model: pass --model <name>');
  });

  it('checks every provider of orchestra.yaml, with its key, though no model is named; a wrong key and an unreachable one are problems', async () => {
    const up = await scripted({ apiKey: 'up-key-0000000000', models: ['small'] });
    const keyed = await scripted({ apiKey: 'right-key-000000000' });
    const gone = await scripted();
    const down = gone.url;
    await gone.close();
    const project = tempDir();
    writeFileSync(
      join(project, 'orchestra.yaml'),
      `providers:\n  up:\n    base_url: ${up.url}\n    api_key_env: UP_KEY\n  keyed:\n    base_url: ${keyed.url}\n    api_key_env: KEYED_KEY\n  down:\n    base_url: ${down}\n`,
    );
    const r = await doctor({ UP_KEY: 'up-key-0000000000', KEYED_KEY: 'wrong-key-00000000' }, {}, project);
    expect(up.requests[0]?.headers['authorization']).toBe('Bearer up-key-0000000000');
    expect(r.stdout).toMatch(new RegExp(`✓ up ${escapeRe(up.url)}: answered in \\d+ ms, 1 model\\(s\\)\\n {6}- small\\n`));
    expect(r.stdout).toContain(`✗ keyed ${keyed.url}: refused the API key (HTTP 401; the key comes from environment KEYED_KEY)\n`);
    expect(r.stdout).toContain(`✗ down ${down}: connection refused (the URL comes from ${join(project, 'orchestra.yaml')}:9:15 providers.down.base_url)\n`);
    expect(r.stdout).toContain('3 problem(s) found'); // no model, the key, the connection
    expect(r.code).toBe(1);
  });

  it('a provider whose key variable is unset is still checked, without a key, and told which variable to set', async () => {
    const server = await scripted({ apiKey: 'k-0000000000000' });
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), `providers:\n  gw:\n    base_url: ${server.url}\n    api_key_env: GW_KEY\n`);
    const r = await doctor({}, {}, project);
    expect(r.stdout).toContain(`✗ gw ${server.url}: wants an API key and none was sent (HTTP 401): set GW_KEY\n`);
  });

  it('lists at most 20 models and says how many more there are', async () => {
    const ids = Array.from({ length: 25 }, (_, i) => `model-${String(i + 1).padStart(2, '0')}`);
    const server = await scripted({ models: ids });
    const r = await doctor({ OPENAI_BASE_URL: server.url });
    expect(r.stdout).toContain('25 model(s)');
    expect(r.stdout).toContain('      - model-20\n      … and 5 more\n');
    expect(r.stdout).not.toContain('model-21');
  });

  it('escapes control characters in what the endpoint sends', async () => {
    const server = await scripted({ models: ['evil\u001b[2J\u001b]0;pwned\u0007', 'rtl\u202emodel\r\nfake ✓ line'] });
    const r = await doctor({ OPENAI_BASE_URL: server.url });
    expect(r.stdout).toContain('      - evil\\e[2J\\e]0;pwned\\x07\n');
    expect(r.stdout).toContain('      - rtl\\u202emodel\\r\\nfake ✓ line\n');
    expect(r.stdout).not.toMatch(/[\u001b\u0007\r\u202e]/);
    const failing = await rawServer(500, 'application/json', JSON.stringify({ error: { message: 'boom\u001b[31m' } }));
    const e = await doctor({ OPENAI_BASE_URL: failing });
    expect(e.stdout).toMatch(new RegExp(`✗ openai ${escapeRe(failing)}: answered HTTP 500 in \\d+ ms: boom\\\\e\\[31m\\n`));
  });

  it('an answer that is not JSON, or JSON that is not a model list, is a problem on one line', async () => {
    const html = await rawServer(200, 'text/html; charset=utf-8', '<!doctype html><title>Web UI</title>');
    const r = await doctor({ OPENAI_BASE_URL: html }, { model: 'm' });
    expect(r.stdout).toMatch(
      new RegExp(`\\n  ✗ openai ${escapeRe(html)}: answered in \\d+ ms, but not with JSON \\(content type text/html\\); is it the API's base URL\\? \\(the URL comes from environment OPENAI_BASE_URL\\)\\n\\n1 problem`),
    );
    expect(r.code).toBe(1);
    const other = await rawServer(200, 'application/json', '{"models":["m"]}');
    const o = await doctor({ OPENAI_BASE_URL: other }, { model: 'm' });
    expect(o.stdout).toMatch(/✗ openai .*: answered in \d+ ms with JSON that is not a model list \(no "data" array\)\n/);
    expect(o.code).toBe(1);
  });

  it('a 404 is not a problem, but a base URL without /v1 gets a hint', async () => {
    const missing = await rawServer(404, 'text/plain', '404 page not found');
    const bare = missing.replace(/\/v1$/, '');
    const r = await doctor({ OPENAI_BASE_URL: bare }, { model: 'm' });
    expect(r.stdout).toContain(`✓ openai ${bare}: answered in`);
    expect(r.stdout).toContain('(it has no model list, which some servers do not offer; if this is an OpenAI-compatible server, its base URL usually ends in /v1 (the URL comes from environment OPENAI_BASE_URL))');
    expect(r.code).toBe(0);
    const withV1 = await doctor({ OPENAI_BASE_URL: missing }, { model: 'm' });
    expect(withV1.stdout).toContain('(it has no model list, which some servers do not offer)\n');
  });

  it('--offline names the configured endpoints and contacts none', async () => {
    const server = await scripted();
    const r = await doctor({ OPENAI_BASE_URL: server.url }, { offline: true });
    expect(r.stdout).toContain(`Endpoints (not contacted: --offline):\n  - openai ${server.url}\n`);
    expect(server.requests).toHaveLength(0);
  });
});
