import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { loadPipeline, runPipeline, type RunEvent } from '@orchestra/core';
import { createModelBackend, emptyConfig } from '@orchestra/llm';
import { guardNetwork, httpError, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';

const source = `digraph ReleaseNote {
  graph [goal="Announce version 2.0 of the CLI", default_max_retries=2]
  start  [shape=Mdiamond]
  exit   [shape=Msquare]
  draft  [prompt="Write a short release note for: $goal"]
  review [prompt="Review the release note. Answer APPROVED if it is ready, else say what to change."]
  start -> draft -> review -> exit
}`;

const guard = guardNetwork(); // in this process, a fetch to any host but 127.0.0.1 fails
afterAll(() => {
  guard.restore();
  expect(guard.refused).toEqual([]);
});

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer();
});
afterEach(() => server.close());

it('retries a rate limit and counts the tokens', async () => {
  server.enqueue(httpError(429, { retryAfterSeconds: 1 }), reply('Version 2.0 is out.'), reply('APPROVED'));
  const backend = createModelBackend({
    config: emptyConfig(process.cwd()), // no orchestra.yaml
    env: { OPENAI_BASE_URL: server.url }, // not process.env: the developer's settings stay out
    flags: { model: 'test-model' }, // as --model
  });
  const events: RunEvent[] = [];
  const loaded = loadPipeline(source, { file: 'release-note.dot' });
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  const result = await runPipeline(loaded.graph, {
    backend,
    logsRoot: join(mkdtempSync(join(tmpdir(), 'release-note-')), 'run'),
    onEvent: (event) => events.push(event),
  });
  expect(result.status).toBe('success');
  expect(result.retries).toBe(1);
  const failed = events.find((e) => e.type === 'stage.failed');
  expect(failed?.type === 'stage.failed' && failed.failureReason).toMatch(/^provider openai \(.+\) is rate limiting \(HTTP 429/);
  expect(events.find((e) => e.type === 'stage.retrying')).toMatchObject({ delayMs: 1000 });
  expect(server.completions.map((r) => r.lastUserText)).toEqual([
    'Write a short release note for: Announce version 2.0 of the CLI',
    'Write a short release note for: Announce version 2.0 of the CLI',
    'Review the release note. Answer APPROVED if it is ready, else say what to change.',
  ]);
  expect(result.usage?.totalTokens).toBeGreaterThan(0);
});
