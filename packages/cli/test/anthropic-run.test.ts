import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpError, reply, startScriptedAnthropicServer, toolCall, type ScriptedAnthropicServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra run` with the built-in `anthropic` provider against the scripted Anthropic Messages server: the real ChatAnthropic client, no network. */

let server: ScriptedAnthropicServer;
beforeEach(async () => {
  server = await startScriptedAnthropicServer({ apiKey: 'ant-test-key' });
});
afterEach(async () => {
  await server.close();
});

const env = (extra: Record<string, string> = {}) => modelFreeEnv({ ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'ant-test-key', ...extra });
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;
const pipeline = join(ROOT, 'fixtures', 'plan-implement-review.dot');

describe('orchestra run with Anthropic (claude-* picks the built-in provider)', () => {
  it('streams each stage through the Messages API, with usage in status.json and the summary', async () => {
    server.respondWith((request) => reply(`answer to: ${request.lastUserText}`, { usage: { promptTokens: 40, completionTokens: 10 } }));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'claude-sonnet-4-5', '--logs-dir', dir], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const node of ['plan', 'implement', 'review']) expect(json(join(dir, node, 'status.json')).usage).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    expect(readFileSync(join(dir, 'plan', 'response.md'), 'utf8')).toBe('answer to: Plan how to create a hello world script for: Create a hello world Python script');
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out)');
    expect(server.messages).toHaveLength(3);
    for (const request of server.messages) {
      expect(request.model).toBe('claude-sonnet-4-5');
      expect(request.stream).toBe(true);
      expect(request.headers['x-api-key']).toBe('ant-test-key');
      expect(request.maxTokens).toBe(8192);
      expect(request.system).toContain('plan'); // the stage's preamble goes in Anthropic's system field
    }
  });

  it('the agent backend calls a workspace tool through tool use and sends the result back', async () => {
    const dir = tempDir();
    const project = join(dir, 'work');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(project);
    writeFileSync(join(project, 'notes.txt'), 'the secret word is heron\n');
    writeFileSync(join(project, 'p.dot'), 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  read [prompt="What is the secret word in notes.txt?"]\n  start -> read -> exit\n}\n');
    server.enqueue(toolCall('read_file', { path: 'notes.txt' }), reply('The word is heron.'));
    const result = await cliWith(['run', 'p.dot', '--model', 'claude-sonnet-4-5', '--backend', 'agent', '--logs-dir', 'run'], { cwd: project, env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.messages[0]?.tools?.map((t) => t.name)).toContain('read_file');
    const second = server.messages[1];
    expect(second?.transcript?.at(-1)?.toolResults?.[0]?.text).toContain('heron');
    expect(readFileSync(join(project, 'run', 'read', 'response.md'), 'utf8')).toBe('The word is heron.');
  });

  it('retries a 429 after its retry-after; a 401 fails at once with one line naming ANTHROPIC_API_KEY', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 }));
    server.respondWith(() => reply('fine'));
    const dir = join(tempDir(), 'run');
    const retried = await cliWith(['run', pipeline, '--model', 'claude-sonnet-4-5', '--logs-dir', dir], { env: env() });
    expect(retried.code).toBe(0);
    expect(retried.stdout).toMatch(/retrying plan \(attempt 2\) in 1\.0s/);
    expect(json(join(dir, 'checkpoint.json')).node_retries).toMatchObject({ plan: 1 });

    const refused = await cliWith(['run', pipeline, '--model', 'claude-sonnet-4-5', '--logs-dir', join(tempDir(), 'run')], { env: env({ ANTHROPIC_API_KEY: 'wrong-key' }) });
    expect(refused.code).toBe(1);
    const reason = refused.stdout.split('\n').find((l) => l.startsWith('  reason: ')) ?? '';
    expect(reason).toMatch(/^  reason: plan failed: provider anthropic \(http:\/\/127\.0\.0\.1:\d+\) refused the API key \(HTTP 401: .+\): check the key in ANTHROPIC_API_KEY$/);
    expect(refused.stdout + refused.stderr).not.toMatch(/\n\s+at /);
  });

  it('a phased node serializes its artifact through a forced tool call, and resends it with its problems', async () => {
    const VISION = { genre: 'literary', audience: 'adult', tone: 'wry', themes: ['solitude', 'weather'], scope: { target_word_count: 60000, chapters: 24 } };
    server.enqueue(
      toolCall('ready_to_summarize', {}),
      reply('Literary novel for adults, wry; themes solitude and weather; 60,000 words in 24 chapters.'),
      toolCall('submit_dream', { ...VISION, audience: '' }),
      toolCall('submit_dream', VISION),
    );
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', join(ROOT, 'fixtures', 'dream.dot'), '--model', 'claude-sonnet-4-5', '--logs-dir', dir], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(json(join(dir, 'dream', 'output.json'))).toEqual(VISION);
    // Serialize forces its submit tool (tool_choice names it).
    expect(server.messages[2]?.toolChoice).toMatchObject({ type: 'tool', name: 'submit_dream' });
  });

  it('without a key for Anthropic itself, says which variable to set before calling anything (exit 2)', async () => {
    const result = await cliWith(['run', pipeline, '--model', 'claude-sonnet-4-5', '--logs-dir', join(tempDir(), 'run')], { env: modelFreeEnv() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('uses provider anthropic (https://api.anthropic.com), which needs an API key: set the environment variable ANTHROPIC_API_KEY');
    expect(server.messages).toHaveLength(0);
  });

  it('doctor lists the models Anthropic’s API offers', async () => {
    const result = await cliWith(['doctor', '--model', 'claude-sonnet-4-5'], { env: env() });
    expect(result.stdout).toMatch(/anthropic.*answered in \d+ ms, \d+ model\(s\)/);
  });
});
