import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** fixtures/dream.dot through `orchestra run` against the scripted server: a phased node, black box. */

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
afterEach(async () => {
  await server.close();
});

const env = () => modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
const dream = join(ROOT, 'fixtures', 'dream.dot');
const VISION = { genre: 'literary', audience: 'adult', tone: 'wry', themes: ['solitude', 'weather'], scope: { target_word_count: 60000, chapters: 24 } };

describe('orchestra run fixtures/dream.dot (a phased node)', () => {
  it('ends with the validated artifact on disk and in the context, after one call sent back with its problems', async () => {
    const usage = { usage: { promptTokens: 30, completionTokens: 10 } };
    server.enqueue(
      toolCall('ready_to_summarize', {}, usage),
      reply('Literary novel for adults, wry; themes solitude and weather; 60,000 words in 24 chapters.', usage),
      toolCall('submit_dream', { ...VISION, audience: '', word_count: 60000 }, usage),
      toolCall('submit_dream', VISION, usage),
    );
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', dream, '--model', 'scripted-model', '--logs-dir', dir], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'dream', 'output.json'), 'utf8'))).toEqual(VISION);
    const checkpoint = JSON.parse(readFileSync(join(dir, 'checkpoint.json'), 'utf8'));
    expect(checkpoint.context['dream.output']).toEqual(VISION);
    expect(checkpoint.node_progress?.dream).toBeUndefined(); // dropped once the node completed
    const status = JSON.parse(readFileSync(join(dir, 'dream', 'status.json'), 'utf8'));
    expect(status.usage).toEqual({ input_tokens: 120, output_tokens: 40, total_tokens: 160 });
    expect(status.notes).toBe('dream: artifact accepted on call 2 of submit_dream (model calls: discuss 1, summarize 1, serialize 2)');
    expect(result.stdout).toMatch(/✓ dream +\S+ +160 tokens\n {4}discuss 1 call, 40 tokens · summarize 1 call, 40 tokens · serialize 2 calls, 80 tokens\n/);
    expect(status.phases).toEqual({
      discuss: { calls: 1, usage: { input_tokens: 30, output_tokens: 10, total_tokens: 40 } },
      summarize: { calls: 1, usage: { input_tokens: 30, output_tokens: 10, total_tokens: 40 } },
      serialize: { calls: 2, usage: { input_tokens: 60, output_tokens: 20, total_tokens: 80 } },
    });
    // Each llm.response event names its phase.
    const events = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; phase?: string });
    expect(events.filter((e) => e.type === 'llm.response').map((e) => e.phase)).toEqual(['discuss', 'summarize', 'serialize', 'serialize']);
    const sent = JSON.parse(server.completions[3]?.messages?.at(-1)?.content as string);
    expect(sent).toEqual({
      result: 'validation_failed',
      issues: {
        invalid: [{ field: 'audience', provided: '', problem: 'empty string not allowed', requirement: "non-empty string; e.g. 'adult', 'young adult'" }],
        missing: [],
        unknown: ['word_count'],
      },
      issue_count: 2,
      action: 'Call submit_dream() with corrected data. Unknown fields may be typos.',
    });
  });

  it('fails with exit 1 and the last findings when the model never gets it right', async () => {
    server.enqueue(reply('Thinking done.'), reply('Brief.'));
    server.respondWith(() => toolCall('submit_dream', { ...VISION, genre: 'western' }));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', dream, '--model', 'scripted-model', '--logs-dir', dir, '--quiet'], { env: env() });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toContain("dream: the output was still invalid after 3 calls of submit_dream (validation_retries=2): genre: Invalid option: expected one of");
    expect(server.completions).toHaveLength(5);
  });

  it('-i holds the Discuss phase as a conversation (here answered from --answers), and records it for resume', async () => {
    server.enqueue(reply('Which tone?'), toolCall('ready_to_summarize', {}), reply('Brief: wry.'), toolCall('submit_dream', VISION));
    const dir = join(tempDir(), 'run');
    const answers = join(tempDir(), 'answers.json');
    writeFileSync(answers, JSON.stringify(['Wry, please.']));
    const result = await cliWith(['run', dream, '-i', '--answers', answers, '--model', 'scripted-model', '--logs-dir', dir, '--quiet'], { env: env() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.completions[1]?.lastUserText).toBe('Wry, please.');
    expect(JSON.parse(readFileSync(join(dir, 'dream', 'output.json'), 'utf8'))).toEqual(VISION);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).run_options).toMatchObject({ phased_mode: 'interactive' });
    expect(JSON.parse(readFileSync(join(dir, 'dream', 'phases.json'), 'utf8')).mode).toBe('interactive');
  });

  it('-i at the console: the agent replies stream under "[dream] agent, turn N:", the brief under "[dream] summarize:"', async () => {
    server.enqueue(
      reply('Which tone do you want for the keeper?', { chunks: 3 }),
      toolCall('ready_to_summarize', {}),
      reply('Brief: literary, for adults, wry; solitude and weather; 60,000 words.', { chunks: 4 }),
      toolCall('submit_dream', VISION),
    );
    const result = await cliWith(['run', dream, '-i', '--model', 'scripted-model', '--logs-dir', join(tempDir(), 'run')], { env: env(), input: 'Wry.\n' });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('\n[dream] agent, turn 1:\n  Which tone do you want for the keeper?\n');
    // Its line ended when the stage did (the stage's line follows on stdout).
    expect(result.stderr).toContain('\n[dream] summarize:\n  Brief: literary, for adults, wry; solitude and weather; 60,000 words.\n');
    // The brief is not shown as the agent's reply of a turn.
    expect(result.stderr.match(/agent, turn \d+:/g)).toEqual(['agent, turn 1:']);
  });

  it('without -i, and with stdin not a terminal, the Discuss phase runs on its own (recorded as direct)', async () => {
    server.enqueue(reply('Thinking done.'), reply('Brief.'), toolCall('submit_dream', VISION));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', dream, '--model', 'scripted-model', '--logs-dir', dir, '--quiet'], { env: env() });
    expect(result.code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).run_options).toMatchObject({ phased_mode: 'direct' });
  });
});
