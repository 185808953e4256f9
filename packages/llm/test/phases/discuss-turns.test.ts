import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tool } from '@langchain/core/tools';
import { QueueInterviewer, loadPipeline, runPipeline, type Graph } from '@orchestra/core';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig } from '../../src/config/index.js';
import { DIRECT_MODE_CONTINUE, READY_TOOL, SUMMARIZE_INSTRUCTION, toolRoundsNote } from '../../src/phases/index.js';
import { tempDir, useTempDirs } from '../helpers.js';

/**
 * What a Discuss turn is (it ends on a reply without a tool call, or on
 * ready_to_summarize; tool round-trips inside it are bounded by
 * max_tool_rounds) and which tools Discuss gets (read-only ones only).
 */

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

const SCHEMA = { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', minLength: 1 } } };

/** A pipeline with one phased node `pitch` (and a workspace holding notes.md, the agent's). */
function pipeline(attrs = ''): { file: string; graph: Graph; workspace: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'pitch.schema.json'), JSON.stringify(SCHEMA));
  writeFileSync(join(dir, 'notes.md'), 'The title is Storm Keeper.\n');
  const source = `digraph Pitch {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  pitch [prompt="Pitch a story", output.schema="pitch.schema.json"${attrs}]\n  start -> pitch -> exit\n}\n`;
  const file = join(dir, 'pitch.dot');
  writeFileSync(file, source);
  return { file, graph: loadPipeline(source, { file }).graph as Graph, workspace: dir };
}

/** A research tool a library registers, marked read-only, and one that is not. */
const lookup = tool(async ({ term }: { term: string }) => `${term}: a keeper of a lighthouse`, { name: 'lookup', description: 'Looks a term up', schema: z.object({ term: z.string() }), metadata: { readOnly: true } });
const publish = tool(async () => 'published', { name: 'publish', description: 'Publishes the pitch', schema: z.object({}) });

const backend = (workspace: string) =>
  createModelBackend({ config: emptyConfig(workspace), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' }, flags: { model: 'm' }, tools: [lookup, publish] });

const toolNames = (request: { tools?: unknown } | undefined) => ((request?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const ARTIFACT = { title: 'Storm Keeper' };

describe('direct Discuss: a turn goes on through its tool calls', () => {
  it('with max_discuss_turns=1 the model sees what its research tool returned, and ends the phase itself', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent"');
    server.enqueue(toolCall('read_file', { path: 'notes.md' }), toolCall(READY_TOOL, {}), reply('Brief: Storm Keeper.'), toolCall('submit_pitch', ARTIFACT));
    const logsRoot = join(tempDir(), 'run');
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot, sourceFile: file });
    expect(result.status).toBe('success');
    const [, second, summarize] = server.completions;
    // The second call is still Discuss (tools offered), with the file's text as the tool's result.
    expect(toolNames(second)).toContain(READY_TOOL);
    expect(second?.messages?.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('The title is Storm Keeper.') });
    expect(summarize?.lastUserText).toBe(SUMMARIZE_INSTRUCTION);
    expect(JSON.parse(readFileSync(join(logsRoot, 'pitch', 'phases.json'), 'utf8'))).toMatchObject({ cost: { discuss: { calls: 2 }, summarize: { calls: 1 }, serialize: { calls: 1 } } });
  });

  it('after max_tool_rounds round-trips the model is told to answer, with only ready_to_summarize left; its answer ends the turn', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent", max_tool_rounds=2');
    server.enqueue(
      toolCall('read_file', { path: 'notes.md' }),
      toolCall('list_files', {}),
      reply('Storm Keeper it is.'),
      reply('Brief: Storm Keeper.'),
      toolCall('submit_pitch', ARTIFACT),
    );
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    const [first, second, third, summarize] = server.completions;
    expect(toolNames(first)).toContain('read_file');
    expect(toolNames(second)).toContain('read_file');
    // The third call: the note after the second round's results, and no research tool offered.
    expect(third?.lastUserText).toBe(toolRoundsNote(2));
    expect(toolNames(third)).toEqual([READY_TOOL]);
    expect(third?.messages?.map((m) => m.role).slice(-3)).toEqual(['assistant', 'tool', 'user']);
    expect(summarize?.tools).toBeUndefined();
    expect(summarize?.messages?.at(-2)).toMatchObject({ role: 'assistant', content: 'Storm Keeper it is.' });
  });

  it('with max_discuss_turns=2 a reply without a tool call is followed by a second turn, which the continue note starts', async () => {
    const { file, graph, workspace } = pipeline(', max_discuss_turns=2');
    server.enqueue(reply('I would call it Storm Keeper.'), toolCall(READY_TOOL, {}), reply('Brief: Storm Keeper.'), toolCall('submit_pitch', ARTIFACT));
    const logsRoot = join(tempDir(), 'run');
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot, sourceFile: file });
    expect(result.status).toBe('success');
    expect(server.completions[1]?.lastUserText).toBe(DIRECT_MODE_CONTINUE);
    expect(server.completions[2]?.lastUserText).toBe(SUMMARIZE_INSTRUCTION);
    expect(JSON.parse(readFileSync(join(logsRoot, 'pitch', 'phases.json'), 'utf8'))).toMatchObject({ cost: { discuss: { calls: 2 } } });
  });

  it('with max_discuss_turns=1 a reply without a tool call ends Discuss', async () => {
    const { file, graph, workspace } = pipeline();
    server.enqueue(reply('Storm Keeper.'), reply('Brief: Storm Keeper.'), toolCall('submit_pitch', ARTIFACT));
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    expect(server.completions.map((r) => r.lastUserText)).toEqual([expect.stringContaining('Pitch a story'), SUMMARIZE_INSTRUCTION, expect.stringContaining('The brief:')]);
  });
});

describe('Discuss gets read-only tools only', () => {
  it('an agent stage offers read_file, list_files, search_text, the registered tools marked readOnly, and ready_to_summarize: no write_file, edit_file or unmarked tool', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent"');
    server.enqueue(toolCall(READY_TOOL, {}), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    expect(toolNames(server.completions[0])).toEqual(['read_file', 'list_files', 'search_text', 'lookup', READY_TOOL]);
  });

  it('a write tool the model calls anyway is not run', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent"');
    server.enqueue(toolCall('write_file', { path: 'out.md', content: 'x' }), toolCall(READY_TOOL, {}), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const result = await runPipeline(graph, { backend: backend(workspace), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    expect(server.completions[1]?.messages?.at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('there is no tool named "write_file"') });
    expect(() => readFileSync(join(workspace, 'out.md'))).toThrow();
  });

  it('an interactive Discuss offers the same tools', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent", agent.mode="interactive"');
    server.enqueue(toolCall(READY_TOOL, {}), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const result = await runPipeline(graph, { backend: backend(workspace), interviewer: new QueueInterviewer([]), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    expect(toolNames(server.completions[0])).toEqual(['read_file', 'list_files', 'search_text', 'lookup', READY_TOOL]);
  });
});

describe('interactive Discuss: tool round-trips inside one reply', () => {
  it('a reply goes through its research calls; after max_tool_rounds the model is told to answer, and that answer is what the human sees', async () => {
    const { file, graph, workspace } = pipeline(', agent.backend="agent", agent.mode="interactive", max_tool_rounds=1');
    server.enqueue(toolCall('lookup', { term: 'keeper' }), reply('A keeper of a lighthouse: what tone?'), toolCall(READY_TOOL, {}), reply('Brief.'), toolCall('submit_pitch', ARTIFACT));
    const result = await runPipeline(graph, { backend: backend(workspace), interviewer: new QueueInterviewer(['Wry.']), logsRoot: join(tempDir(), 'run'), sourceFile: file });
    expect(result.status).toBe('success');
    expect(result.context['interactive.history']).toEqual([{ agent: 'A keeper of a lighthouse: what tone?', human: 'Wry.' }]);
    const [, second, third] = server.completions;
    expect(second?.lastUserText).toBe(toolRoundsNote(1));
    expect(second?.messages?.at(-2)).toMatchObject({ role: 'tool', content: 'keeper: a keeper of a lighthouse' });
    expect(toolNames(second)).toEqual([READY_TOOL]);
    // The next reply has its tool rounds again.
    expect(toolNames(third)).toContain('lookup');
    expect(third?.lastUserText).toBe('Wry.');
  });
});
