import { copyFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpError, reply, startScriptedOllamaServer, toolCall, type ScriptedOllamaServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra run` with the built-in `ollama` provider against the scripted Ollama server: the real ChatOllama client, no network. */

let server: ScriptedOllamaServer;
beforeEach(async () => {
  server = await startScriptedOllamaServer();
});
afterEach(async () => {
  await server.close();
});

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** A project whose stages use llama3.2 on the built-in ollama provider, reached through OLLAMA_HOST. */
function project(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = tempDir();
  copyFileSync(join(ROOT, 'fixtures', 'plan-implement-review.dot'), join(dir, 'pipeline.dot'));
  writeFileSync(join(dir, 'orchestra.yaml'), 'defaults:\n  provider: ollama\n  model: llama3.2\n');
  return { dir, env: modelFreeEnv({ OLLAMA_HOST: server.url.replace(/^http:\/\//, '') }) };
}

describe('orchestra run with Ollama', () => {
  it('streams each stage through /api/chat, with usage in status.json and the summary', async () => {
    server.respondWith((request) => reply(`answer to: ${request.lastUserText}`, { usage: { promptTokens: 40, completionTokens: 10 } }));
    const { dir, env } = project();
    const result = await cliWith(['run', 'pipeline.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const node of ['plan', 'implement', 'review']) expect(json(join(dir, 'run', node, 'status.json')).usage).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out)');
    expect(server.chats).toHaveLength(3);
    for (const request of server.chats) {
      expect(request.model).toBe('llama3.2');
      expect(request.stream).toBe(true);
    }
  });

  it('the agent backend calls a workspace tool and sends the result back', async () => {
    const { dir, env } = project();
    writeFileSync(join(dir, 'notes.txt'), 'the secret word is heron\n');
    writeFileSync(join(dir, 'p.dot'), 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  read [prompt="What is the secret word in notes.txt?"]\n  start -> read -> exit\n}\n');
    server.enqueue(toolCall('read_file', { path: 'notes.txt' }), reply('The word is heron.'));
    const result = await cliWith(['run', 'p.dot', '--backend', 'agent', '--logs-dir', 'run2'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.chats[0]?.tools?.map((t) => t.function.name)).toContain('read_file');
    expect(JSON.stringify(server.chats[1]?.transcript?.at(-1))).toContain('heron');
    expect(readFileSync(join(dir, 'run2', 'read', 'response.md'), 'utf8')).toBe('The word is heron.');
  });

  it('a model Ollama does not have fails at once with one line naming the model (HTTP 404)', async () => {
    server.enqueue(httpError(404));
    const { dir, env } = project();
    const result = await cliWith(['run', 'pipeline.dot', '--logs-dir', 'run'], { cwd: dir, env });
    expect(result.code).toBe(1);
    const reason = result.stdout.split('\n').find((l) => l.startsWith('  reason: ')) ?? '';
    expect(reason).toMatch(/^  reason: plan failed: provider ollama \(http:\/\/127\.0\.0\.1:\d+\) does not know model "llama3\.2" \(HTTP 404/);
    expect(server.chats).toHaveLength(1);
  });

  it('a phased node serializes its artifact through a tool call', async () => {
    const VISION = { genre: 'literary', audience: 'adult', tone: 'wry', themes: ['solitude', 'weather'], scope: { target_word_count: 60000, chapters: 24 } };
    server.enqueue(toolCall('ready_to_summarize', {}), reply('Literary novel for adults.'), toolCall('submit_dream', VISION));
    const { dir, env } = project();
    for (const file of readdirSync(join(ROOT, 'fixtures')).filter((f) => f.startsWith('dream'))) copyFileSync(join(ROOT, 'fixtures', file), join(dir, file));
    const result = await cliWith(['run', 'dream.dot', '--logs-dir', 'run3'], { cwd: dir, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(json(join(dir, 'run3', 'dream', 'output.json'))).toEqual(VISION);
  });

  it('doctor lists the models Ollama has pulled', async () => {
    const { dir, env } = project();
    const result = await cliWith(['doctor'], { cwd: dir, env });
    expect(result.stdout).toMatch(/ollama.*answered in \d+ ms, [1-9]\d* model\(s\)/);
  });
});

