import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createChatBackend } from '@orchestra/llm';
import { QueueInterviewer, loadPipeline, runPipeline } from '@orchestra/core';
import { expect, it } from 'vitest';

const source = `digraph Outline {
  graph [goal="Plan a small garden shed"]
  start  [shape=Mdiamond]
  exit   [shape=Msquare]
  refine [agent.mode="interactive", prompt="Improve the outline with the human. Goal: $goal"]
  start -> refine -> exit
}`;

it('sends the human replies to the model until /done', async () => {
  const model = fakeModel().respond(new AIMessage('How big should it be?')).respond(new AIMessage('Then 2 by 3 metres, on a gravel base.'));
  const loaded = loadPipeline(source, { file: 'outline.dot' });
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
  const result = await runPipeline(loaded.graph, {
    backend: createChatBackend({ model }),
    interviewer: new QueueInterviewer(['Small: two bikes and a mower', '/done']),
    logsRoot: join(mkdtempSync(join(tmpdir(), 'outline-')), 'run'),
  });
  expect(result.status).toBe('success');
  expect(result.context['interactive.command']).toBe('done');
  // The second call carries the whole conversation: preamble, prompt, the agent's question, the reply.
  expect(model.calls[1]?.messages.map((m) => m.getType())).toEqual(['system', 'human', 'ai', 'human']);
  expect(model.calls[1]?.messages.at(-1)?.text).toBe('Small: two bikes and a mower');
  expect(result.context.last_response).toBe('Then 2 by 3 metres, on a gravel base.');
});
