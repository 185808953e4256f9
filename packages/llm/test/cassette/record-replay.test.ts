import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CassetteRecorder,
  QueueInterviewer,
  cassetteHandlers,
  cassetteInterviewer,
  createDefaultRegistry,
  isOrchestraError,
  loadPipeline,
  runPipeline,
  type RunEvent,
} from '@orchestra/core';
import { guardNetwork, reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend, emptyConfig, replayCassette } from '../../src/index.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();
const guard = guardNetwork();
afterAll(() => {
  guard.restore();
  expect(guard.refused).toEqual([]);
});

const KEY = 'sk-cassette-secret-0123456789';

const PIPELINE = `digraph Ship {
  graph [goal="Ship the parser"]
  start [shape=Mdiamond]
  exit  [shape=Msquare]
  plan  [prompt="Write a plan for: $goal"]
  build [shape=parallelogram, tool_command="printf built"]
  code  [prompt="Read notes.txt and say what it asks", agent.backend="agent"]
  gate  [shape=hexagon, label="Ship it?"]
  start -> plan -> build -> code -> gate
  gate -> exit [label="[Y] Yes"]
  gate -> plan [label="[N] No"]
}
`;

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: KEY });
});
afterEach(() => server.close());

/** Writes the pipeline and a workspace; records one run of it against the scripted server. */
async function record(dir: string, source = PIPELINE) {
  const file = join(dir, 'ship.dot');
  writeFileSync(file, source);
  writeFileSync(join(dir, 'notes.txt'), 'Remember the changelog.\n');
  const cassette = join(dir, 'ship.cassette');
  server.enqueue(reply('Plan: write it, test it, ship it.'), toolCall('read_file', { path: 'notes.txt' }), reply('It asks for the changelog.'));
  const recorder = await CassetteRecorder.create(cassette, { pipeline: 'Ship', source, flags: { model: 'test-model' }, secrets: [KEY] });
  const backend = createModelBackend({ config: emptyConfig(dir), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: KEY }, flags: { model: 'test-model' }, cassette: recorder });
  const interviewer = cassetteInterviewer(recorder, new QueueInterviewer([{ value: 'Y' }]));
  const registry = createDefaultRegistry({ backend, interviewer });
  for (const [type, handler] of Object.entries(cassetteHandlers(recorder))) registry.register(type, handler);
  const loaded = loadPipeline(source, { file });
  const result = await runPipeline(loaded.graph!, { registry, logsRoot: join(dir, '20261127-101010-Ship-recorded'), workdir: dir, source, sourceFile: file });
  await recorder.flush();
  return { file, cassette, result };
}

describe('cassettes: a run recorded against a model, played back with no network and no person', () => {
  it('records every model request with its streamed chunks, the answer, the tool node and the agent tool call, without the key', async () => {
    const dir = tempDir();
    const { cassette, result } = await record(dir);
    expect(result.status).toBe('success');
    const text = readFileSync(cassette, 'utf8');
    expect(text).not.toContain(KEY);
    const [header, ...entries] = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(header).toMatchObject({ cassette: 'orchestra', version: 1, pipeline: 'Ship', flags: { model: 'test-model' } });
    expect(entries.map((e) => `${e.type as string} ${e.stage as string} ${e.n as number}`)).toEqual([
      'model plan 1',
      'tool build 1',
      'model code 1',
      'tool_call code 1',
      'model code 2',
      'answer gate 1',
    ]);
    const plan = entries[0] as { request: { model: string; messages: { role: string; content: string }[] }; response: { chunks: { content: string }[] } };
    expect(plan.request.model).toBe('test-model');
    expect(plan.request.messages.at(-1)).toEqual({ role: 'human', content: 'Write a plan for: Ship the parser' });
    // Streamed chunks are kept: more than one piece of text.
    expect(plan.response.chunks.filter((c) => typeof c.content === 'string' && c.content !== '').length).toBeGreaterThan(1);
    expect(entries[3]).toMatchObject({ request: { tool: 'read_file', args: { path: 'notes.txt' } } });
    expect(JSON.stringify((entries[3] as { response: unknown }).response)).toContain('Remember the changelog.');
    expect(entries[1]).toMatchObject({ request: { command: expect.stringContaining('printf') }, response: { outcome: { status: 'success', contextUpdates: { 'tool.output': 'built' } } } });
    expect(entries[5]).toMatchObject({ request: { text: 'Ship it?', type: 'MULTIPLE_CHOICE' }, response: { answer: { value: 'Y' } } });
  });

  it('replays the run with the server gone, no key and no answers: same result, same context, same stage files', async () => {
    const dir = tempDir();
    const { file, cassette, result: recorded } = await record(dir);
    await server.close();
    writeFileSync(join(dir, 'notes.txt'), 'changed since: a replay must not read it\n');
    const events: RunEvent[] = [];
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, logsRoot: join(dir, '20261127-111111-Ship-replayed'), onEvent: (e) => events.push(e) });
    expect(replayed.status).toBe('success');
    expect(replayed.warnings).toEqual([]);
    expect(replayed.context['tool.output']).toBe('built');
    expect(replayed.completedNodes).toEqual(recorded.completedNodes);
    expect(readFileSync(join(dir, '20261127-111111-Ship-replayed', 'code', 'response.md'), 'utf8')).toBe('It asks for the changelog.');
    expect(readFileSync(join(dir, '20261127-111111-Ship-replayed', 'plan', 'response.md'), 'utf8')).toBe('Plan: write it, test it, ship it.');
    // The reply streams again, piece by piece, with its recorded usage.
    expect(events.filter((e) => e.type === 'llm.delta' && e.nodeId === 'plan').length).toBeGreaterThan(1);
    expect(replayed.usage?.totalTokens).toBe(recorded.usage?.totalTokens);
    expect(events.filter((e) => e.type === 'agent.tool_call').map((e) => e.type === 'agent.tool_call' && `${e.tool}:${e.status}`)).toEqual(['read_file:ok']);
  });

  it('strict: a request the cassette does not hold stops the run with the stage, the request number and what differs', async () => {
    const dir = tempDir();
    const { cassette } = await record(dir);
    const edited = join(dir, 'ship.dot');
    // Another goal through the context: the same pipeline asks something else.
    const failure = await replayCassette({ pipeline: edited, cassette, workdir: dir, env: {}, context: { goal: 'Ship the lexer' } }).catch((e: unknown) => e);
    expect(isOrchestraError(failure, 'ORCH_CASSETTE_MISMATCH')).toBe(true);
    // The preamble lists the context: the first difference is there, shown where it starts.
    expect((failure as Error).message).toMatch(/^stage plan, model request 1: messages\[0\]\.content differs: cassette …".*- start: success", now …".*- start: success\\n\\nContext:\\n- goal = Ship the lexer" \(.*ship\.cassette:2\)$/);
    expect((failure as Error).message).not.toContain('\n');
  });

  it('lenient: the stage gets its next recorded reply, and each difference is a warning', async () => {
    const dir = tempDir();
    const { file, cassette } = await record(dir);
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, mode: 'lenient', context: { goal: 'Ship the lexer' } });
    expect(replayed.status).toBe('success');
    expect(replayed.warnings.map((w) => /^stage (\w+), model request (\d)/.exec(w)?.slice(1).join(' '))).toEqual(['plan 1', 'code 1', 'code 2']);
    for (const warning of replayed.warnings) expect(warning).toMatch(/: messages\[0\]\.content differs: .*goal = Ship the lexer.*; answered with the recorded reply$/);
  });

  it('refuses a cassette recorded from another pipeline before anything runs', async () => {
    const dir = tempDir();
    const { cassette } = await record(dir);
    const other = join(dir, 'other.dot');
    writeFileSync(other, PIPELINE.replace('Write a plan', 'Write a careful plan'));
    const failure = await replayCassette({ pipeline: other, cassette, workdir: dir, env: {}, logsRoot: join(dir, 'never') }).catch((e: unknown) => e);
    expect(isOrchestraError(failure, 'ORCH_CASSETTE_FOREIGN')).toBe(true);
    expect((failure as Error).message).toMatch(/ship\.cassette was recorded from another pipeline \(Ship, sha256 [0-9a-f]{12}…; this one is [0-9a-f]{12}…\)/);
    expect(() => readFileSync(join(dir, 'never', 'checkpoint.json'))).toThrow();
  });
});
