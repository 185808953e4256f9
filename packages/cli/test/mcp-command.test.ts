import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NETWORK_GUARD, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { BIN, ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra mcp` as an MCP client starts it: a real process spoken to over its stdin and stdout. */

interface RunResult {
  id: string;
  status: string;
  final_response: string | null;
  run_dir: string;
  completed_nodes: string[];
  questions: { id: string }[];
}

let model: ScriptedOpenAIServer;
let clients: Client[] = [];
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
/** Servers spawned by hand: stopped after each test even when an assertion failed first. */
const spawned: ReturnType<typeof spawn>[] = [];
afterEach(async () => {
  for (const c of clients) await c.close();
  clients = [];
  for (const child of spawned.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await model.close();
});

/** The environment as a string record (what the SDK's transport takes). */
function envOf(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function connect(args: string[], options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: envOf(options.env ?? modelFreeEnv()),
    cwd: options.cwd ?? ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
  const client = new Client({ name: 'mcp-command-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, stderr: () => stderr };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<RunResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text) as RunResult;
}

async function pollUntil(client: Client, id: string, done: (r: RunResult) => boolean): Promise<RunResult> {
  let result = await call(client, 'run_status', { id });
  for (let i = 0; i < 400 && !done(result); i += 1) {
    await new Promise((r) => setTimeout(r, 25));
    result = await call(client, 'run_status', { id });
  }
  return result;
}

/** `orchestra mcp` spawned by hand: what it writes to stdout, line by line. */
function spawnMcp(args: string[]) {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], { cwd: ROOT, env: modelFreeEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  spawned.push(child);
  let stdout = '';
  let stderr = '';
  const waiters: (() => void)[] = [];
  child.stdout.on('data', (b: Buffer) => {
    stdout += b.toString();
    for (const w of waiters.splice(0)) w();
  });
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
  /** Resolves with the response to request `id`. */
  const response = async (id: number): Promise<{ result?: { content?: { text: string }[] } }> => {
    for (;;) {
      const line = stdout.split('\n').find((l) => l.includes(`"id":${id}`));
      if (line) return JSON.parse(line);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no response ${id}: ${stdout} ${stderr}`)), 20_000);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  const initialize = async () => {
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await response(1);
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  };
  return { child, send, response, initialize, exited, output: () => ({ stdout, stderr }) };
}

// Each test starts orchestra (compiled on the fly when the bundle is older than the sources): more than vitest's default 5 s on a busy machine.
describe('orchestra mcp', { timeout: 30_000 }, () => {
  it('offers the tools over stdio and runs a simulated run in <project>/runs, polled to its end', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'brief.md'), 'Two pages at most.\n');
    const { client, stderr } = await connect(['--project', project, '--simulate']);
    expect(client.getServerVersion()?.name).toBe('orchestra');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['answer_question', 'cancel_run', 'launch_run', 'list_runs', 'run_status']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['orchestrate']);

    const started = await call(client, 'launch_run', { task: 'Write the report', context_paths: ['brief.md'], agent_mode: 'multi' });
    expect(started.run_dir).toBe(join(project, 'runs', started.id));
    const done = await pollUntil(client, started.id, (r) => r.status === 'completed');
    expect(done).toMatchObject({ status: 'completed', questions: [] });
    expect(done.final_response).toMatch(/^\[Simulated\] /);
    expect(stderr()).toContain(`MCP server on stdio for ${project}`);
  });

  it('writes nothing but protocol to stdout, and exits 0 when stdin ends', async () => {
    const mcp = spawnMcp(['--project', tempDir(), '--simulate']);
    await mcp.initialize();
    mcp.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'launch_run', arguments: { task: 'hello', wait: true } } });
    const launched = JSON.parse((await mcp.response(2)).result?.content?.[0]?.text ?? '{}') as RunResult;
    expect(launched.status).toBe('completed');
    mcp.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'launch_run', arguments: { task: '' } } });
    expect(JSON.stringify(await mcp.response(3))).toContain('"isError":true');
    mcp.child.stdin.end();
    expect(await mcp.exited).toEqual({ code: 0, signal: null });
    const lines = mcp.output().stdout.trim().split('\n');
    expect(lines.length).toBe(3);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' });
    expect(mcp.output().stderr).toContain('stdin ended; stopping');
  });

  it('on SIGTERM parks a run waiting at its gate (its question pending, for orchestra answer) and exits 0', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'review.dot'), readFileSync(join(ROOT, 'fixtures', 'human-gate.dot'), 'utf8'));
    const mcp = spawnMcp(['--project', project, '--simulate']);
    await mcp.initialize();
    mcp.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'launch_run', arguments: { task: 'Review', pipeline: 'review.dot', wait: true } } });
    const waiting = JSON.parse((await mcp.response(2)).result?.content?.[0]?.text ?? '{}') as RunResult;
    expect(waiting.status).toBe('waiting');
    mcp.child.kill('SIGTERM');
    expect(await mcp.exited).toEqual({ code: 0, signal: null });
    expect(mcp.output().stderr).toContain('received SIGTERM; stopping: runs waiting for an answer park with their questions, the others stop at a safe point; all stay resumable');
    const status = await cliWith(['status', waiting.run_dir, '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'parked', checkpoint_status: 'parked', pending: [expect.objectContaining({ id: 'review_gate' })] });
  });

  it('runs call the configured model without tools, whatever orchestra.yaml prefers', async () => {
    model.respondWith((request) => reply(`answer to: ${request.lastUserText?.split('\n')[0]}`));
    const project = tempDir();
    // The project prefers the agent backend (a model with tools): the server still gives models none.
    writeFileSync(join(project, 'orchestra.yaml'), 'defaults:\n  backend: agent\n');
    const env = modelFreeEnv({ OPENAI_API_KEY: 'test-key', NODE_OPTIONS: `--import=${NETWORK_GUARD}` });
    const { client } = await connect(['--project', project, '--model', 'scripted-model', '--base-url', model.url], { env, cwd: tempDir() });
    const result = await call(client, 'launch_run', { task: 'Name three colours', agent_mode: 'single', wait: true });
    expect(result).toMatchObject({ status: 'completed', final_response: expect.stringMatching(/^answer to: /) });
    expect(model.completions.length).toBeGreaterThan(0);
    for (const request of model.completions) {
      expect(request.model).toBe('scripted-model');
      expect(request.tools ?? []).toEqual([]);
    }
  });

  it('--model does not override the agents a launch_run names: each branch runs on its own model', async () => {
    model.respondWith((request) => reply(`answer from ${request.model ?? '?'}`));
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), 'models:\n  fast: { model: fast-id }\n  smart: { model: smart-id }\n');
    const env = modelFreeEnv({ OPENAI_API_KEY: 'test-key', NODE_OPTIONS: `--import=${NETWORK_GUARD}` });
    const { client } = await connect(['--project', project, '--model', 'fast', '--base-url', model.url], { env, cwd: tempDir() });
    const multi = await call(client, 'launch_run', { task: 'Compare', agent_mode: 'multi', agents: ['fast', 'smart'], wait: true });
    expect(multi.status).toBe('completed');
    const models = model.completions.map((r) => r.model);
    expect(models.filter((m) => m === 'smart-id')).toHaveLength(1);
    expect(new Set(models)).toEqual(new Set(['fast-id', 'smart-id']));
    // A stage that names no model gets --model's.
    const before = model.completions.length;
    expect((await call(client, 'launch_run', { task: 'Write it', wait: true })).status).toBe('completed');
    expect(model.completions.slice(before).map((r) => r.model)).toEqual(['fast-id']);
  });

  it('refuses bad flags with exit 2', async () => {
    const [agent, missing, url] = await Promise.all([
      cliWith(['mcp', '--backend', 'agent', '--project', tempDir()]),
      cliWith(['mcp', '--project', join(tempDir(), 'nope')]),
      cliWith(['mcp', '--base-url', 'ftp://x', '--project', tempDir()]),
    ]);
    expect(agent.code).toBe(2);
    expect(agent.stderr).toContain('--backend agent lets models run commands on this machine: add --allow-tools');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--project');
    expect(missing.stderr).toContain('does not exist');
    expect(missing.stdout).toBe('');
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('--base-url expects an http(s) URL');
  });
});
