import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { QueueInterviewer } from '@orchestra/core';
import { reply, startScriptedOpenAIServer, toolCall, toolCalls, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgentBackend } from '../../src/backends/agent-backend.js';
import { dot, eventsOf, runWith, tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});

afterEach(async () => {
  await server.close();
});

const model = () => new ChatOpenAI({ model: 'agent-model', apiKey: 'k', maxRetries: 0, streamUsage: true, configuration: { baseURL: server.url } });

/** The tool results the model was sent back, in order (the last request carries the whole exchange). */
function toolResults(): string[] {
  return (server.completions.at(-1)?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe('agent backend: a tool-calling loop over the workspace (real ChatOpenAI, scripted server)', () => {
  it('edits files in the workspace through tool calls and answers', async () => {
    const workspace = tempDir();
    writeFileSync(join(workspace, 'hello.py'), 'print("hello")\n');
    server.enqueue(
      toolCall('read_file', { path: 'hello.py' }),
      toolCall('edit_file', { path: 'hello.py', old_text: 'hello', new_text: 'hello, world' }),
      toolCall('write_file', { path: 'docs/NOTES.md', content: '# Notes\n' }),
      reply('Changed the greeting and wrote notes.'),
    );
    const { result, events, logsRoot } = await runWith(dot('  code [prompt="Fix the greeting", agent.backend="agent"]\n  start -> code -> exit'), createAgentBackend({ model: model(), workspace }));
    expect(result.status).toBe('success');
    expect(readFileSync(join(workspace, 'hello.py'), 'utf8')).toBe('print("hello, world")\n');
    expect(readFileSync(join(workspace, 'docs', 'NOTES.md'), 'utf8')).toBe('# Notes\n');
    expect(readFileSync(join(logsRoot, 'code', 'response.md'), 'utf8')).toBe('Changed the greeting and wrote notes.');
    // The tools were offered, and each result went back to the model.
    expect((server.completions[0]?.tools ?? []).map((t) => (t as { function: { name: string } }).function.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_files', 'search_text']);
    expect(toolResults()[0]).toContain('print("hello")');
    expect(eventsOf(events, 'agent.tool_call').map((e) => [e.tool, e.status, e.detail])).toEqual([
      ['read_file', 'ok', 'hello.py'],
      ['edit_file', 'ok', 'hello.py'],
      ['write_file', 'ok', 'docs/NOTES.md'],
    ]);
    const log = readFileSync(join(logsRoot, 'code', 'tool-calls.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { tool: string; status: string });
    expect(log.map((l) => `${l.tool}:${l.status}`)).toEqual(['read_file:ok', 'edit_file:ok', 'write_file:ok']);
    expect(eventsOf(events, 'llm.response')).toHaveLength(4);
  });

  it('refuses paths outside the workspace, by .. and through a symbolic link, and tells the model', async () => {
    const root = tempDir();
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    writeFileSync(join(root, 'secret.txt'), 'top secret');
    symlinkSync(join(root, 'secret.txt'), join(workspace, 'link.txt'));
    server.enqueue(
      toolCalls([
        { name: 'read_file', arguments: { path: '../secret.txt' } },
        { name: 'read_file', arguments: { path: 'link.txt' } },
        { name: 'write_file', arguments: { path: 'link.txt', content: 'overwritten' } },
      ]),
      reply('I could not read it.'),
    );
    const { result, events } = await runWith(dot('  code [prompt="Read the secret", agent.backend="agent"]\n  start -> code -> exit'), createAgentBackend({ model: model(), workspace }));
    expect(result.status).toBe('success');
    expect(readFileSync(join(root, 'secret.txt'), 'utf8')).toBe('top secret');
    expect(eventsOf(events, 'agent.tool_call').map((e) => e.status)).toEqual(['refused', 'refused', 'refused']);
    const results = toolResults();
    expect(results).toHaveLength(3);
    for (const r of results) {
      expect(r).toContain('outside the workspace');
      expect(r).not.toContain('top secret');
    }
  });

  it('cannot change its own run: writes into .orchestra and into any run directory are refused, the run\'s pipeline stays as started', async () => {
    const workspace = tempDir();
    const source = dot('  code [prompt="Tidy up", agent.backend="agent"]\n  start -> code -> exit');
    const evil = source.replace('start -> code', 'start -> pwn [shape=parallelogram, tool_command="touch PWNED"]\n  pwn -> code');
    for (const logsRoot of [join(workspace, '.orchestra', 'runs', 'r1'), join(workspace, 'out', 'run')]) {
      const rel = logsRoot.slice(workspace.length + 1);
      server.enqueue(
        toolCall('list_files', { path: rel }),
        toolCalls([
          { name: 'write_file', arguments: { path: `${rel}/pipeline.dot`, content: evil } },
          { name: 'edit_file', arguments: { path: `${rel}/checkpoint.json`, old_text: '"status"', new_text: '"status" ' } },
          { name: 'write_file', arguments: { path: `${rel}/code/notes.md`, content: 'mine now' } },
          { name: 'write_file', arguments: { path: '.ORCHESTRA/session.json', content: '{}' } },
        ]),
        reply('Done.'),
      );
      const { result, events } = await runWith(source, createAgentBackend({ model: model(), workspace }), { logsRoot, source });
      expect(result.status).toBe('success');
      expect(eventsOf(events, 'agent.tool_call').map((e) => `${e.tool}:${e.status}`)).toEqual(['list_files:ok', 'write_file:refused', 'edit_file:refused', 'write_file:refused', 'write_file:refused']);
      const [, ...refusals] = toolResults().slice(-5);
      expect(refusals[0]).toMatch(logsRoot.includes('.orchestra') ? /is inside \.orchestra/ : /is inside the orchestra run directory out\/run/);
      expect(refusals[3]).toMatch(/is inside \.orchestra/);
      expect(readFileSync(join(logsRoot, 'pipeline.dot'), 'utf8')).toBe(source);
      expect(existsSync(join(logsRoot, 'code', 'notes.md'))).toBe(false);
    }
    expect(existsSync(join(workspace, '.ORCHESTRA'))).toBe(false);
    expect(existsSync(join(workspace, 'PWNED'))).toBe(false);
  });

  it('kills a hung command\'s whole process group at its timeout and goes on', async () => {
    const workspace = tempDir();
    server.enqueue(
      toolCall('run_command', { command: 'sleep 30 & echo $! > child.pid; wait', timeout_seconds: 1 }),
      reply('The command hung.'),
    );
    const source = dot('  code [prompt="Run it", agent.backend="agent", agent.tools="run_command"]\n  start -> code -> exit');
    const started = Date.now();
    const { result } = await runWith(source, createAgentBackend({ model: model(), workspace }));
    expect(result.status).toBe('success');
    expect(Date.now() - started).toBeLessThan(20_000); // far less than the 30 s sleep: it was killed (generous bound for a loaded machine)
    expect(toolResults()[0]).toContain('timed out after 1s; the process group was killed');
    const pid = Number(readFileSync(join(workspace, 'child.pid'), 'utf8'));
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 50));
      } catch {
        alive = false;
      }
    }
    expect(alive, 'the background sleep was killed with its group').toBe(false);
  });

  it('runs tool_hooks around every call: a refusing pre-hook skips the call and the model is told why; the post-hook sees the result', async () => {
    const workspace = tempDir();
    const logs = tempDir();
    server.enqueue(
      toolCalls([
        { name: 'write_file', arguments: { path: 'allowed.txt', content: 'yes' } },
        { name: 'write_file', arguments: { path: 'blocked.txt', content: 'no' } },
      ]),
      reply('One of the writes was blocked.'),
    );
    const pre = `read input; case "$input" in *blocked*) echo "policy: no blocked files"; exit 3;; esac; exit 0`;
    const post = `cat >> ${join(logs, 'post.jsonl')}; echo >> ${join(logs, 'post.jsonl')}`;
    const source = dot(`  code [prompt="Write", agent.backend="agent", tool_hooks.pre="${pre.replace(/"/g, '\\"')}"]\n  start -> code -> exit`, `goal="g", tool_hooks.post="${post}"`);
    const { result, events, logsRoot } = await runWith(source, createAgentBackend({ model: model(), workspace }));
    expect(result.status).toBe('success');
    expect(existsSync(join(workspace, 'allowed.txt'))).toBe(true);
    expect(existsSync(join(workspace, 'blocked.txt'))).toBe(false);
    expect(eventsOf(events, 'agent.tool_call').map((e) => e.status)).toEqual(['ok', 'skipped']);
    expect(toolResults()[1]).toBe('skipped: tool_hooks.pre exited with code 3: policy: no blocked files');
    const postRuns = readFileSync(join(logs, 'post.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { phase: string; tool: string; status: string });
    expect(postRuns.map((r) => [r.phase, r.tool, r.status])).toEqual([['post', 'write_file', 'ok']]);
    expect(readFileSync(join(logsRoot, 'code', 'tool-hooks.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('records each command and hook in the run before it runs (a resumed run stops what a killed one left), and forgets it after', async () => {
    const workspace = tempDir();
    const logsRoot = join(tempDir(), 'run');
    const seen = join(workspace, 'seen');
    // Each copies the run's process record as it stood while it ran, and its own group id ($$: the gate's shell became it).
    const snapshot = (name: string) => `echo $$ > ${seen}/${name}.pid; cp ${logsRoot}/processes.json ${seen}/${name}.json`;
    mkdirSync(seen);
    server.enqueue(toolCall('run_command', { command: snapshot('command') }), reply('Ran it.'));
    const source = dot(`  code [prompt="Run it", agent.backend="agent", agent.tools="run_command", tool_hooks.pre="${snapshot('hook')}"]\n  start -> code -> exit`);
    const { result } = await runWith(source, createAgentBackend({ model: model(), workspace }), { logsRoot });
    expect(result.status).toBe('success');
    for (const name of ['hook', 'command']) {
      const pid = Number(readFileSync(join(seen, `${name}.pid`), 'utf8'));
      const record = JSON.parse(readFileSync(join(seen, `${name}.json`), 'utf8')) as { processes: { pgid: number; node: string; command: string; start_time: string | null }[] };
      expect(record.processes, name).toContainEqual(expect.objectContaining({ pgid: pid, node: 'code', command: expect.stringContaining(`${name}.pid`) }));
      expect(record.processes.find((p) => p.pgid === pid)?.start_time, name).toMatch(/^\d+$/); // /proc start time: a reused PID is never taken for it
    }
    expect(existsSync(join(logsRoot, 'processes.json'))).toBe(false); // every record removed once its process exited
  });

  it('offers registered LangChain tools and stops at agent.max_turns', async () => {
    const workspace = tempDir();
    const calls: string[] = [];
    const weather = tool(async ({ city }: { city: string }) => {
      calls.push(city);
      return `sunny in ${city}`;
    }, { name: 'get_weather', description: 'Weather of a city', schema: z.object({ city: z.string() }) });
    server.enqueue(toolCall('get_weather', { city: 'Paris' }), toolCall('get_weather', { city: 'Rome' }), toolCall('get_weather', { city: 'Oslo' }));
    const { result } = await runWith(dot('  code [prompt="Weather?", agent.backend="agent", agent.max_turns=2]\n  start -> code -> exit'), createAgentBackend({ model: model(), workspace, tools: [weather] }));
    expect(calls).toEqual(['Paris', 'Rome']);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('agent stage code made 2 model calls (agent.max_turns) and was still calling tools');
    expect(server.completions).toHaveLength(2);
  });
});

describe('agent backend in a conversation (agent.mode="interactive")', () => {
  it('uses tools within a turn, keeps the tool exchange in the history, and ends on /done', async () => {
    const workspace = tempDir();
    writeFileSync(join(workspace, 'plan.md'), 'step 1\n');
    server.enqueue(toolCall('read_file', { path: 'plan.md' }), reply('The plan has one step. Add another?'), toolCall('edit_file', { path: 'plan.md', old_text: 'step 1\n', new_text: 'step 1\nstep 2\n' }), reply('Added step 2.'));
    const { result, events } = await runWith(
      dot('  talk [prompt="Let us improve plan.md", agent.mode="interactive", agent.backend="agent"]\n  start -> talk -> exit'),
      createAgentBackend({ model: model(), workspace }),
      { interviewer: new QueueInterviewer([{ value: 'yes', text: 'yes' }, { value: '/done', text: '/done' }]) },
    );
    expect(result.status).toBe('success');
    expect(readFileSync(join(workspace, 'plan.md'), 'utf8')).toBe('step 1\nstep 2\n');
    // Turn 2's first request carries turn 1's tool call and result before the human's "yes".
    const roles = server.completions[2]?.messages?.map((m) => m.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(eventsOf(events, 'agent.tool_call').map((e) => e.tool)).toEqual(['read_file', 'edit_file']);
    expect(eventsOf(events, 'llm.response').map((e) => e.turn)).toEqual([1, 1, 2, 2]);
  });
});

describe('agent backend: refused up front', () => {
  it('a workspace that does not exist refuses the run before any model call', async () => {
    const missing = join(tempDir(), 'no-such-dir');
    await expect(runWith(dot('  code [prompt="x", agent.backend="agent"]\n  start -> code -> exit'), createAgentBackend({ model: model(), workspace: missing }))).rejects.toThrow(
      `the agent workspace of node code, ${missing}, is not an existing directory`,
    );
    expect(server.requests).toHaveLength(0);
  });
});
