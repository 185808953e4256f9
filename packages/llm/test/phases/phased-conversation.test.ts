import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueueInterviewer, loadPipeline, resumePipeline, runPipeline, type Graph } from '@orchestra/core';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig } from '../../src/config/index.js';
import { INTERACTIVE_MODE_INSTRUCTIONS, INTERACTIVE_MODE_REMINDER, READY_TOOL } from '../../src/phases/index.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

const SCHEMA = { type: 'object', additionalProperties: false, required: ['title', 'tone'], properties: { title: { type: 'string', minLength: 1 }, tone: { type: 'string' } } };

function pipeline(attrs = ''): { file: string; graph: Graph; source: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'pitch.schema.json'), JSON.stringify(SCHEMA));
  const source = `digraph Pitch {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  pitch [prompt="Pitch a story", agent.mode="interactive", output.schema="pitch.schema.json"${attrs}]\n  start -> pitch -> exit\n}\n`;
  const file = join(dir, 'pitch.dot');
  writeFileSync(file, source);
  return { file, graph: loadPipeline(source, { file }).graph as Graph, source };
}

const backend = () => createModelBackend({ config: emptyConfig(tempDir()), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' }, flags: { model: 'm' } });
const ARTIFACT = { title: 'Storm Keeper', tone: 'wry' };

describe('phased LLM stage, interactive: Discuss with the human, then Summarize and Serialize', () => {
  it('ends when the model calls ready_to_summarize, and serializes what the human and the model settled', async () => {
    const { file, graph } = pipeline();
    server.enqueue(reply('What tone do you want?'), toolCall(READY_TOOL, {}), reply('Brief: Storm Keeper, wry.'), toolCall('submit_pitch', ARTIFACT));
    const logsRoot = join(tempDir(), 'run');
    const result = await runPipeline(graph, { backend: backend(), interviewer: new QueueInterviewer(['Wry, please.']), logsRoot, sourceFile: file });
    expect(result.status).toBe('success');
    expect(result.context['pitch.output']).toEqual(ARTIFACT);
    expect(result.context['interactive.command']).toBe('done');
    expect(JSON.parse(readFileSync(join(logsRoot, 'pitch', 'phases.json'), 'utf8'))).toMatchObject({ mode: 'interactive', cost: { discuss: { calls: 2 }, summarize: { calls: 1 }, serialize: { calls: 1 } } });
    const [first, second, summarize, serialize] = server.completions;
    expect(first?.messages?.[0]).toMatchObject({ role: 'system', content: INTERACTIVE_MODE_INSTRUCTIONS });
    expect(first?.lastUserText).toBe(`Pitch a story\n\n${INTERACTIVE_MODE_REMINDER}`);
    expect((first?.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([READY_TOOL]);
    expect(second?.lastUserText).toBe('Wry, please.');
    // Summarize reads the conversation with the human's words and the ready call in it.
    expect(summarize?.tools).toBeUndefined();
    expect(summarize?.messages?.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'user', 'assistant', 'tool', 'user']);
    expect(serialize?.toolChoice).toEqual({ type: 'function', function: { name: 'submit_pitch' } });
  });

  it("ends on the human's /done, and by itself after max_discuss_turns replies", async () => {
    const done = pipeline();
    server.enqueue(reply('A lighthouse?'), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const byHuman = await runPipeline(done.graph, { backend: backend(), interviewer: new QueueInterviewer(['/done']), logsRoot: join(tempDir(), 'run'), sourceFile: done.file });
    expect(byHuman.status).toBe('success');
    expect(server.completions).toHaveLength(3);

    server.reset();
    const limited = pipeline(', max_discuss_turns=2');
    server.enqueue(reply('One?'), reply('Two?'), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const byLimit = await runPipeline(limited.graph, { backend: backend(), interviewer: new QueueInterviewer(['more']), logsRoot: join(tempDir(), 'run'), sourceFile: limited.file });
    expect(byLimit.status).toBe('success');
    expect(byLimit.context['interactive.history']).toEqual([{ agent: 'One?', human: 'more' }]);
    expect(server.completions).toHaveLength(4); // two replies, then summarize and serialize: the human was not asked about "Two?"
  });

  it('a /reject still fails the node, with no Summarize or Serialize', async () => {
    const { file, graph } = pipeline();
    server.enqueue(reply('A lighthouse?'));
    const result = await runPipeline(graph, { backend: backend(), interviewer: new QueueInterviewer(['/reject not this']), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('rejected by the human at turn 1: not this');
    expect(server.completions).toHaveLength(1);
  });

  it('a run stopped after the discussion resumes in Serialize: no question asked again, no discuss or summarize call repeated', async () => {
    const { file, graph, source } = pipeline();
    const stop = new AbortController();
    server.enqueue(reply('Tone?'), toolCall(READY_TOOL, {}), reply('Brief: wry.'));
    server.respondWith(() => {
      setTimeout(() => stop.abort(), 20);
      return toolCall('submit_pitch', ARTIFACT, { delayMs: 5000 });
    });
    const logsRoot = join(tempDir(), 'run');
    const first = await runPipeline(graph, { backend: backend(), interviewer: new QueueInterviewer(['Wry.']), logsRoot, source, sourceFile: file, signal: stop.signal });
    expect(first.status).toBe('interrupted');

    server.reset();
    server.enqueue(toolCall('submit_pitch', ARTIFACT));
    const resumed = await resumePipeline(logsRoot, { backend: backend(), interviewer: new QueueInterviewer([]) });
    expect(resumed.status).toBe('success');
    expect(resumed.context['pitch.output']).toEqual(ARTIFACT);
    expect(server.completions).toHaveLength(1);
    expect(server.completions[0]?.toolChoice).toEqual({ type: 'function', function: { name: 'submit_pitch' } });
    // The conversation ended once, in the first process; the resumed one says it picked the node up.
    const events = readFileSync(join(logsRoot, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'conversation.ended')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'conversation.resumed')).toHaveLength(1);
  });

  it('a run stopped during Summarize resumes in it, announcing the end of the conversation once', async () => {
    const { file, graph, source } = pipeline();
    const stop = new AbortController();
    server.enqueue(reply('Tone?'), toolCall(READY_TOOL, {}));
    server.respondWith(() => {
      setTimeout(() => stop.abort(), 20);
      return reply('too late', { delayMs: 5000 });
    });
    const logsRoot = join(tempDir(), 'run');
    const first = await runPipeline(graph, { backend: backend(), interviewer: new QueueInterviewer(['Wry.']), logsRoot, source, sourceFile: file, signal: stop.signal });
    expect(first.status).toBe('interrupted');

    server.reset();
    server.enqueue(reply('Brief: wry.'), toolCall('submit_pitch', ARTIFACT));
    const resumed = await resumePipeline(logsRoot, { backend: backend(), interviewer: new QueueInterviewer([]) });
    expect(resumed.status).toBe('success');
    expect(server.completions.map((r) => r.tools === undefined)).toEqual([true, false]); // Summarize again, then Serialize
    const events = readFileSync(join(logsRoot, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'conversation.ended')).toHaveLength(1);
  });
});
