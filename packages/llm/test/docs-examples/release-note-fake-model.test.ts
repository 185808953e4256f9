import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createChatBackend } from '@orchestra/llm';
import { loadPipeline, runPipeline, type RunEvent } from '@orchestra/core';
import { expect, it } from 'vitest';

const source = `digraph ReleaseNote {
  graph [goal="Announce version 2.0 of the CLI"]
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

// An answer with the token counts a provider would report.
const answer = (text: string) => new AIMessage({ content: text, usage_metadata: { input_tokens: 50, output_tokens: 10, total_tokens: 60 } });

it('revises once, then publishes', async () => {
  const model = fakeModel()
    .respond(answer('Version 2.0 is out.'))
    .respond(answer('Say what changed.'))
    .respond(answer('Version 2.0 is out: commands start twice as fast.'))
    .respond(answer('APPROVED'));
  const events: RunEvent[] = [];
  const loaded = loadPipeline(source, { file: 'release-note.dot' });
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  const result = await runPipeline(loaded.graph, {
    backend: createChatBackend({ model }),
    logsRoot: join(mkdtempSync(join(tmpdir(), 'release-note-')), 'run'),
    onEvent: (event) => events.push(event),
  });
  expect(result.completedNodes).toEqual(['start', 'draft', 'review', 'revise', 'review', 'exit']);
  // What the model was sent: a system message with the preamble, then the stage's prompt.
  expect(model.callCount).toBe(4);
  expect(model.calls[2]?.messages.map((m) => m.getType())).toEqual(['system', 'human']);
  expect(model.calls[2]?.messages[0]?.text).toContain('- last_response = Say what changed.');
  expect(model.calls[2]?.messages[1]?.text).toBe('Revise the release note as the review asks.');
  expect(result.usage).toEqual({ inputTokens: 200, outputTokens: 40, totalTokens: 240 });
  expect(events.filter((e) => e.type === 'llm.response').map((e) => e.nodeId)).toEqual(['draft', 'review', 'revise', 'review']);
});
