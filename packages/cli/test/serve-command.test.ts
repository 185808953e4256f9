import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NETWORK_GUARD, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { BIN, ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';
import { spawn } from 'node:child_process';
import { request } from 'node:http';

/** `orchestra serve` as a user starts it: a real process on a free port, stopped with Ctrl-C. */

let model: ScriptedOpenAIServer;
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
/** Servers the tests started: stopped after each test even when an assertion failed before the test stopped them. */
const started: ReturnType<typeof spawn>[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await model.close();
});

function serve(args: string[], env: NodeJS.ProcessEnv = modelFreeEnv(), cwd = ROOT) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${stdout} ${stderr}`)), 20_000);
    child.stdout.on('data', () => {
      const match = /serving (http:\/\/\S+) /.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
  });
  return { child, url, exited, output: () => ({ stdout, stderr }) };
}

/** The status of a GET with this `Host` header (fetch always sends the URL's). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('orchestra serve', { timeout: 30_000 }, () => {
  it('serves runs that call the configured model, and stops on Ctrl-C leaving them resumable', async () => {
    model.respondWith((request) => reply(`answer to: ${request.lastUserText}`));
    const runsDir = join(tempDir(), 'runs');
    const env = modelFreeEnv({ OPENAI_API_KEY: 'test-key', NODE_OPTIONS: `--import=${NETWORK_GUARD}` });
    const server = serve(['--runs-dir', runsDir, '--model', 'scripted-model', '--base-url', model.url], env);
    const url = await server.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const source = readFileSync(join(ROOT, 'fixtures', 'human-gate.dot'), 'utf8');
    const created = await fetch(`${url}/pipelines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ source }) });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    let questions: { id: string }[] = [];
    for (let i = 0; i < 400 && questions.length === 0; i += 1) {
      questions = ((await (await fetch(`${url}/pipelines/${id}/questions`)).json()) as { questions: { id: string }[] }).questions;
      if (questions.length === 0) await new Promise((r) => setTimeout(r, 25));
    }
    await fetch(`${url}/pipelines/${id}/questions/${questions[0]?.id}/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"answer":"F"}' });
    // [F] Fix runs an LLM stage through the scripted model, then asks again.
    let again: { id: string }[] = [];
    for (let i = 0; i < 400 && !(again.length > 0 && again[0]?.id !== questions[0]?.id); i += 1) {
      again = ((await (await fetch(`${url}/pipelines/${id}/questions`)).json()) as { questions: { id: string }[] }).questions;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(model.completions[0]?.model).toBe('scripted-model');
    // Ctrl-C while the gate waits: the run parks with its question, so the command line can answer it.
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toContain('stay resumable');
    const status = await cliWith(['status', join(runsDir, id), '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'parked', checkpoint_status: 'parked', pending: [expect.objectContaining({ id: 'review_gate' })] });
    const answered = await cliWith(['answer', join(runsDir, id), 'A']);
    expect(answered.stdout).toContain('recorded [A] Approve for review_gate');
    expect(answered.code).toBe(0);
    expect(readFileSync(join(runsDir, id, 'fixes', 'response.md'), 'utf8')).toBe('answer to: Address the review comments');
  });

  it('gives models no tools unless tools are allowed, whatever orchestra.yaml prefers', async () => {
    model.respondWith(() => reply('done'));
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), `defaults:\n  backend: agent\n  model: scripted-model\nproviders:\n  openai:\n    base_url: ${model.url}\n`);
    const env = modelFreeEnv({ OPENAI_API_KEY: 'test-key', NODE_OPTIONS: `--import=${NETWORK_GUARD}` });
    const server = serve(['--runs-dir', join(project, 'runs')], env, project);
    const url = await server.url;
    const source = readFileSync(join(ROOT, 'fixtures', 'simple.dot'), 'utf8');
    const created = await fetch(`${url}/pipelines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ source }) });
    expect(created.status, await created.clone().text()).toBe(201);
    const { id } = (await created.json()) as { id: string };
    let state = '';
    for (let i = 0; i < 400 && state !== 'completed'; i += 1) {
      state = ((await (await fetch(`${url}/pipelines/${id}`)).json()) as { state: string }).state;
      if (state !== 'completed') await new Promise((r) => setTimeout(r, 25));
    }
    expect(state).toBe('completed');
    expect(model.completions.length).toBeGreaterThan(0);
    for (const request of model.completions) expect(request.tools ?? []).toEqual([]);
    server.child.kill('SIGINT');
    expect(await server.exited).toBe(0);
  });

  it('refuses to listen beyond loopback without a token or --no-auth, and bad flags', async () => {
    const open = await cliWith(['serve', '--host', '0.0.0.0', '--port', '0']);
    expect(open.code).toBe(2);
    expect(open.stderr).toContain('give it a token (--token or $ORCHESTRA_TOKEN), or accept an open server with --no-auth');
    expect((await cliWith(['serve', '--port', '70000'])).stderr).toContain('--port expects a port number');
    expect((await cliWith(['serve', '--token', 'short'])).stderr).toContain('at least 16 characters');
    expect((await cliWith(['serve', '--cors', 'https://a.example/path'])).stderr).toContain('--cors expects an origin');
    const both = await cliWith(['serve', '--token', 'abcdefghijklmnopq', '--no-auth']);
    expect(both.code).toBe(2);
    const fromEnv = await cliWith(['serve', '--no-auth'], { env: modelFreeEnv({ ORCHESTRA_TOKEN: 'abcdefghijklmnopq' }) });
    expect(fromEnv.stderr).toContain('$ORCHESTRA_TOKEN is set and --no-auth was given');
    const agent = await cliWith(['serve', '--backend', 'agent']);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('--backend agent lets models run commands on this machine: add --allow-tools');
  });

  it('with --no-auth on another address it warns; with a token it asks for it', async () => {
    const openServer = serve(['--host', '0.0.0.0', '--no-auth', '--allowed-host', 'orchestra.test', '--runs-dir', join(tempDir(), 'runs')]);
    const url = (await openServer.url).replace('0.0.0.0', '127.0.0.1');
    expect((await fetch(`${url}/pipelines`)).status).toBe(200);
    expect(openServer.output().stderr).toContain('warning: --no-auth');
    // It answers to the names it was given and its addresses, not to another site's name (DNS rebinding).
    expect(await statusWithHost(`${url}/pipelines`, 'orchestra.test')).toBe(200);
    expect(await statusWithHost(`${url}/pipelines`, 'evil.example')).toBe(421);
    openServer.child.kill('SIGINT');
    expect(await openServer.exited).toBe(0);

    const guarded = serve(['--runs-dir', join(tempDir(), 'runs')], modelFreeEnv({ ORCHESTRA_TOKEN: 'token-from-the-environment' }));
    const guardedUrl = await guarded.url;
    expect(guarded.output().stdout).toContain('a token is required');
    expect((await fetch(`${guardedUrl}/pipelines`)).status).toBe(401);
    expect((await fetch(`${guardedUrl}/pipelines`, { headers: { authorization: 'Bearer token-from-the-environment' } })).status).toBe(200);
    guarded.child.kill('SIGINT');
    expect(await guarded.exited).toBe(0);
  });
});
