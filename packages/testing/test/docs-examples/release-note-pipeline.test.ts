import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunEvent } from '@orchestra/core';
import { readCheckpoint } from '@orchestra/core/store';
import { NETWORK_GUARD, httpError, reply, scriptConversation, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';

// The orchestra command (this repository's launcher; in your project, the installed one).
const ORCHESTRA = fileURLToPath(new URL('../../../cli/bin/orchestra.js', import.meta.url));

// The pipeline under test: draft, then review until the reviewer answers APPROVED.
const source = `digraph ReleaseNote {
  graph [goal="Announce version 2.0 of the CLI", default_max_retries=2]
  start  [shape=Mdiamond]
  exit   [shape=Msquare]
  draft  [prompt="Write a short release note for: $goal"]
  review [prompt="Review the release note. Answer APPROVED if it is ready, else say what to change."]
  revise [prompt="Revise the release note as the review asks."]
  start -> draft -> review
  review -> exit   [condition="context.last_response=APPROVED"]
  review -> revise [condition="context.last_response!=APPROVED"]
  revise -> review
}`;

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
afterEach(async () => {
  await server.close();
});

/** Runs `orchestra run` on the pipeline against the scripted server; resolves with the exit code and the run directory. */
async function runOrchestra(): Promise<{ code: number | null; stderr: string; runDir: string }> {
  const project = mkdtempSync(join(tmpdir(), 'release-note-'));
  writeFileSync(join(project, 'release-note.dot'), source);
  const runDir = join(project, 'run');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENAI_BASE_URL: server.url, // the built-in openai provider, pointed at the scripted server
    OPENAI_API_KEY: 'test-key',
    HOME: project, // no ~/.orchestra/orchestra.yaml of the developer's
    NODE_OPTIONS: `--import=${NETWORK_GUARD}`, // any fetch to a host other than 127.0.0.1 fails
  };
  const child = spawn(process.execPath, [ORCHESTRA, 'run', 'release-note.dot', '--model', 'test-model', '--logs-dir', runDir, '--quiet'], { cwd: project, env });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stderr, runDir };
}

const events = (runDir: string): RunEvent[] =>
  readFileSync(join(runDir, 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as RunEvent);

describe('release note pipeline', { timeout: 30_000 }, () => {
  it('publishes a draft the reviewer approves', async () => {
    const conversation = scriptConversation([
      { expect: 'Write a short release note for: Announce version 2.0 of the CLI', reply: 'Version 2.0 is out.' },
      { expect: 'Review the release note', reply: 'APPROVED' },
    ]);
    server.respondWith(conversation);

    const { code, stderr, runDir } = await runOrchestra();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(conversation.turnsLeft).toBe(0);
    expect(readCheckpoint(runDir).completed_nodes).toEqual(['start', 'draft', 'review', 'exit']);
    expect(readFileSync(join(runDir, 'draft', 'response.md'), 'utf8')).toBe('Version 2.0 is out.');
    // Each stage is one streamed request: a system message (with the context preamble), then the prompt.
    expect(server.completions.map((r) => r.model)).toEqual(['test-model', 'test-model']);
    expect(server.completions[1]?.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(server.completions[1]?.messages?.[0]?.content).toContain('- last_response = Version 2.0 is out.');
  });

  it('revises when the reviewer asks for changes, after a rate limit on the first call', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 })); // queued steps come before the conversation
    const usage = { promptTokens: 100, completionTokens: 20 };
    server.respondWith(
      scriptConversation([
        { expect: 'Write a short release note', reply: reply('Version 2.0 is out.', { usage }) },
        { expect: 'Review the release note', reply: reply('Say what changed.', { usage }) },
        { expect: 'Revise the release note', reply: reply('Version 2.0 is out: commands start twice as fast.', { usage }) },
        { expect: 'Review the release note', reply: reply('APPROVED', { usage }) },
      ]),
    );

    const { code, runDir } = await runOrchestra();
    expect(code).toBe(0);
    const checkpoint = readCheckpoint(runDir);
    expect(checkpoint.completed_nodes).toEqual(['start', 'draft', 'review', 'revise', 'review', 'exit']);
    // The 429 was retried once, no sooner than its Retry-After.
    expect(server.completions.map((r) => r.outcome)).toEqual(['error 429', 'reply', 'reply', 'reply', 'reply']);
    expect(checkpoint.node_retries.draft).toBe(1);
    const retry = events(runDir).find((e) => e.type === 'stage.retrying');
    expect(retry).toMatchObject({ nodeId: 'draft', attempt: 2 });
    expect(retry?.type === 'stage.retrying' && retry.delayMs).toBeGreaterThanOrEqual(1000);
    // The reviewer's words reached the reviser through the preamble.
    expect(server.completions[3]?.messages?.[0]?.content).toContain('- last_response = Say what changed.');
    // Tokens: four answered calls of 120 each; the refused call used none.
    expect(checkpoint.token_usage).toEqual({ input_tokens: 400, output_tokens: 80, total_tokens: 480 });
    const done = events(runDir).at(-1);
    expect(done?.type === 'pipeline.completed' && done.usage).toEqual({ inputTokens: 400, outputTokens: 80, totalTokens: 480 });
  });
});
