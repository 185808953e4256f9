import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CassetteRecorder, QueueInterviewer, cassetteHandlers, cassetteInterviewer, createDefaultRegistry, loadPipeline, runPipeline, type RunEvent } from '@orchestra/core';
import { reply, startScriptedOpenAIServer, toolCalls, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cassetteTools, createModelBackend, emptyConfig, replayCassette } from '../../src/index.js';
import { DEFAULT_WORKSPACE_TOOLS, createWorkspaceTools } from '../../src/tools/index.js';
import { isReadOnlyTool } from '../../src/tools/read-only-tool.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k-0000' });
});
afterEach(() => server.close());

/** Records `source` (in `dir/p.dot`) into `dir/p.cassette` with the run directory `logsRoot`. */
async function record(dir: string, source: string, logsRoot: string) {
  const file = join(dir, 'p.dot');
  writeFileSync(file, source);
  const cassette = join(dir, 'p.cassette');
  const recorder = await CassetteRecorder.create(cassette, { pipeline: 'P', source, flags: { model: 'm' } });
  const backend = createModelBackend({ config: emptyConfig(dir), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k-0000' }, flags: { model: 'm' }, cassette: recorder });
  const interviewer = cassetteInterviewer(recorder, new QueueInterviewer([]));
  const registry = createDefaultRegistry({ backend, interviewer });
  for (const [type, handler] of Object.entries(cassetteHandlers(recorder))) registry.register(type, handler);
  const result = await runPipeline(loadPipeline(source, { file }).graph!, { registry, logsRoot, workdir: dir, source, sourceFile: file });
  await recorder.flush();
  return { file, cassette, result };
}

describe('cassettes: tool hooks', () => {
  it('record the pre hook verdict of each call; a replay runs no hook and skips what the hook skipped', async () => {
    const dir = tempDir();
    const marks = join(dir, 'hook-runs.txt');
    writeFileSync(join(dir, 'open.txt'), 'open');
    const pre = `echo pre >> ${marks}; read input; case "$input" in *blocked*) echo "policy: no blocked files"; exit 3;; esac; exit 0`;
    const post = `echo post >> ${marks}`;
    const source = `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  code [prompt="Read", agent.backend="agent", tool_hooks.pre="${pre.replace(/"/g, '\\"')}", tool_hooks.post="${post}"]\n  start -> code -> exit\n}\n`;
    server.enqueue(
      toolCalls([
        { name: 'read_file', arguments: { path: 'open.txt' } },
        { name: 'read_file', arguments: { path: 'blocked.txt' } },
      ]),
      reply('One read was blocked.'),
    );
    const { file, cassette, result } = await record(dir, source, join(dir, '20261127-020202-P'));
    expect(result.status).toBe('success');
    // pre before each call, post after the one that ran.
    expect(readFileSync(marks, 'utf8')).toBe('pre\npost\npre\n');
    const hooks = readFileSync(cassette, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { type: string; response: unknown }).filter((e) => e.type === 'hook');
    expect(hooks.map((h) => h.response)).toEqual([{ proceed: true }, { proceed: false, reason: 'tool_hooks.pre exited with code 3: policy: no blocked files' }]);

    await server.close();
    const events: RunEvent[] = [];
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, onEvent: (e) => events.push(e) });
    expect(replayed.status).toBe('success');
    expect(readFileSync(marks, 'utf8')).toBe('pre\npost\npre\n'); // no hook ran
    expect(events.flatMap((e) => (e.type === 'agent.tool_call' ? [e.status] : []))).toEqual(['ok', 'skipped']);
  });
});

describe('cassettes: the run id', () => {
  it('is taken out of the preamble whatever its length, so a replay in another run directory matches', async () => {
    const dir = tempDir();
    const source = `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="Say hi"]\n  start -> a -> exit\n}\n`;
    server.enqueue(reply('hi'));
    const { file, cassette } = await record(dir, source, join(dir, 'rm2'));
    expect(readFileSync(cassette, 'utf8')).toContain('(run <run id>)');
    await server.close();
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, logsRoot: join(dir, 'x') });
    expect(replayed.status).toBe('success');
    expect(existsSync(join(dir, 'x', 'a', 'response.md'))).toBe(true);
  });

  it('a flag given to the replay replaces only that recorded flag', async () => {
    const dir = tempDir();
    const source = `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="Say hi"]\n  start -> a -> exit\n}\n`;
    server.enqueue(reply('hi'));
    const { file, cassette } = await record(dir, source, join(dir, '20261127-030303-P'));
    await server.close();
    // The recorded model stays; another base URL changes no request.
    expect((await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, flags: { baseUrl: 'http://127.0.0.1:9/v1' } })).status).toBe('success');
    const failure = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {}, flags: { model: 'other' } }).catch((e: unknown) => e as Error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toMatch(/^stage a, model request 1: model differs: cassette "m", now "other" /);
  });
});

describe('cassettes: agent tools', () => {
  it('keep what marks them: a phased Discuss still offers the read-only ones under a cassette', async () => {
    const dir = tempDir();
    const recorder = await CassetteRecorder.create(join(dir, 'c.cassette'), { pipeline: 'P', source: 'digraph P {}' });
    const tools = createWorkspaceTools({ root: dir, tools: [...DEFAULT_WORKSPACE_TOOLS], commandTimeoutMs: 1000 });
    const wrapped = cassetteTools(recorder, 'code', tools);
    expect(wrapped.map((t) => [t.name, isReadOnlyTool(t)])).toEqual(tools.map((t) => [t.name, isReadOnlyTool(t)]));
    expect(wrapped.filter(isReadOnlyTool).map((t) => t.name)).toEqual(['read_file', 'list_files', 'search_text']);
  });
});
