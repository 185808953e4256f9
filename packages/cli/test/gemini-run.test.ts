import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dropConnection, httpError, reply, startScriptedGeminiServer, toolCall, type ScriptedGeminiServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra run` with the built-in `gemini` provider against the scripted Gemini server: the real ChatGoogleGenerativeAI client, no network. */

let server: ScriptedGeminiServer;
beforeEach(async () => {
  server = await startScriptedGeminiServer({ apiKey: 'gem-test-key' });
});
afterEach(async () => {
  await server.close();
});

const env = (extra: Record<string, string> = {}) => modelFreeEnv({ GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'gem-test-key', ...extra });
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const pipeline = join(ROOT, 'fixtures', 'plan-implement-review.dot');

describe('orchestra run with Gemini (gemini-* picks the built-in provider)', () => {
  it('streams each stage through streamGenerateContent, with usage in status.json and the summary', async () => {
    server.respondWith((request) => reply(`answer to: ${request.lastUserText}`, { usage: { promptTokens: 40, completionTokens: 10 } }));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'gemini-2.5-flash', '--logs-dir', dir], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const node of ['plan', 'implement', 'review']) expect(json(join(dir, node, 'status.json')).usage).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out)');
    expect(server.generations).toHaveLength(3);
    for (const request of server.generations) {
      expect(request.model).toBe('gemini-2.5-flash');
      expect(request.stream).toBe(true);
      expect(request.headers['x-goog-api-key']).toBe('gem-test-key');
    }
  });

  it('the agent backend calls a workspace tool through a function call and sends the result back', async () => {
    const project = join(tempDir(), 'work');
    mkdirSync(project);
    writeFileSync(join(project, 'notes.txt'), 'the secret word is heron\n');
    writeFileSync(join(project, 'p.dot'), 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  read [prompt="What is the secret word in notes.txt?"]\n  start -> read -> exit\n}\n');
    server.enqueue(toolCall('read_file', { path: 'notes.txt' }), reply('The word is heron.'));
    const result = await cliWith(['run', 'p.dot', '--model', 'gemini-2.5-flash', '--backend', 'agent', '--logs-dir', 'run'], { cwd: project, env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.stringify(server.generations[1]?.transcript?.at(-1)?.functionResponses)).toContain('heron');
    expect(readFileSync(join(project, 'run', 'read', 'response.md'), 'utf8')).toBe('The word is heron.');
  });

  it('retries a 429 after the delay Google gives (RetryInfo) and a stream cut off mid-way; a bad key fails at once', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 }), dropConnection('mid-stream'));
    server.respondWith(() => reply('fine'));
    const dir = join(tempDir(), 'run');
    const retried = await cliWith(['run', pipeline, '--model', 'gemini-2.5-flash', '--logs-dir', dir], { env: env() });
    expect(retried.code, retried.stdout).toBe(0);
    expect(retried.stdout).toMatch(/retrying plan \(attempt 2\) in 1\.0s/);
    expect(json(join(dir, 'checkpoint.json')).node_retries).toMatchObject({ plan: 2 });

    const refused = await cliWith(['run', pipeline, '--model', 'gemini-2.5-flash', '--logs-dir', join(tempDir(), 'run')], { env: env({ GEMINI_API_KEY: 'wrong-key' }) });
    expect(refused.code).toBe(1);
    const reason = refused.stdout.split('\n').find((l) => l.startsWith('  reason: ')) ?? '';
    expect(reason).toMatch(/^  reason: plan failed: provider gemini \(http:\/\/127\.0\.0\.1:\d+\) rejected the request for model "gemini-2\.5-flash" \(HTTP 400: .*API key not valid/);
    expect(refused.stdout + refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('a phased node serializes its artifact through a forced function call', async () => {
    const VISION = { genre: 'literary', audience: 'adult', tone: 'wry', themes: ['solitude', 'weather'], scope: { target_word_count: 60000, chapters: 24 } };
    server.enqueue(toolCall('ready_to_summarize', {}), reply('Literary novel for adults.'), toolCall('submit_dream', { ...VISION, audience: '' }), toolCall('submit_dream', VISION));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', join(ROOT, 'fixtures', 'dream.dot'), '--model', 'gemini-2.5-flash', '--logs-dir', dir], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code, result.stdout).toBe(0);
    expect(json(join(dir, 'dream', 'output.json'))).toEqual(VISION);
    expect(server.generations[2]?.toolConfig?.functionCallingConfig).toMatchObject({ mode: 'ANY', allowedFunctionNames: ['submit_dream'] });
  });

  it('doctor lists the models the Gemini API offers', async () => {
    const result = await cliWith(['doctor', '--model', 'gemini-2.5-flash'], { env: env() });
    expect(result.stdout).toMatch(/gemini.*answered in \d+ ms, [1-9]\d* model\(s\)/);
  });
});

