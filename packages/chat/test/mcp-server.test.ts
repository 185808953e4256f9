import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { MCP_TOOLS, ORCHESTRATOR_SECTION, RunLauncher, createMcpServer, type RunResult } from '../src/index.js';

/** The MCP server in-process: a real client over a linked pair of in-memory transports. */

let launcher: RunLauncher | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await launcher?.close();
  client = undefined;
  launcher = undefined;
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-mcp-'));
  writeFileSync(join(dir, 'notes.md'), 'The shed must be 2 m wide.\n');
  writeFileSync(join(dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
  writeFileSync(join(dir, 'tools.dot'), readFileSync(fixturePath('tools.dot'), 'utf8'));
  return dir;
}

async function connect(dir: string, version?: string, backendFor?: ConstructorParameters<typeof RunLauncher>[0]['backendFor']): Promise<Client> {
  launcher = new RunLauncher({ projectDir: dir, checkpointIntervalMs: 0, ...(backendFor ? { backendFor } : { simulate: true }) });
  const server = createMcpServer(launcher, { ...(version ? { version } : {}), questionPollMs: 10 });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

async function call(name: string, args: Record<string, unknown>, options: Parameters<Client['callTool']>[2] = {}): Promise<CallToolResult> {
  return (await (client as Client).callTool({ name, arguments: args }, undefined, options)) as CallToolResult;
}

/** A tool's result: its JSON text, which equals its structured content. */
function value<T = RunResult>(result: CallToolResult): T {
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  const text = (result.content[0] as { type: 'text'; text: string }).text;
  const parsed = JSON.parse(text) as T;
  expect(result.structuredContent).toEqual(parsed);
  return parsed;
}

/** A tool error's message. */
function refusal(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return (result.content[0] as { type: 'text'; text: string }).text;
}

async function pollUntil(id: string, done: (r: RunResult) => boolean): Promise<RunResult> {
  let result = value(await call('run_status', { id }));
  for (let i = 0; i < 400 && !done(result); i += 1) {
    await new Promise((r) => setTimeout(r, 20));
    result = value(await call('run_status', { id }));
  }
  return result;
}

describe('orchestra MCP server', () => {
  it('introduces itself and lists the five tools with their input schemas, and the orchestrate prompt', async () => {
    const c = await connect(project(), '9.8.7');
    expect(c.getServerVersion()).toEqual({ name: 'orchestra', version: '9.8.7' });
    expect(c.getInstructions()).toContain('launch_run');
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOLS].sort());
    const launch = tools.find((t) => t.name === 'launch_run');
    expect(launch?.inputSchema.required).toEqual(['task']);
    expect(Object.keys(launch?.inputSchema.properties ?? {}).sort()).toEqual(
      ['agent_mode', 'agent_system_prompts', 'agents', 'context', 'context_paths', 'execute_after_planning', 'pipeline', 'planning_mode', 'refinement', 'task', 'wait'].sort(),
    );
    expect((launch?.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
    expect((launch?.inputSchema.properties?.task as { description?: string }).description).toMatch(/self-contained/);
    expect(launch?.outputSchema?.properties).toHaveProperty('final_response');
    expect(tools.find((t) => t.name === 'answer_question')?.inputSchema.required).toEqual(['id', 'question_id', 'answer']);
    expect(tools.find((t) => t.name === 'run_status')?.inputSchema.required).toEqual(['id']);
    expect(tools.find((t) => t.name === 'cancel_run')?.inputSchema.required).toEqual(['id']);
    expect(tools.find((t) => t.name === 'list_runs')?.annotations?.readOnlyHint).toBe(true);

    const { prompts } = await c.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['orchestrate']);
    const prompt = await c.getPrompt({ name: 'orchestrate' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: ORCHESTRATOR_SECTION } }]);
  });

  it('reports the package version when none is given', async () => {
    const c = await connect(project());
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(c.getServerVersion()?.version).toBe(pkg.version);
  });

  it('launch_run with wait: runs a template to the end and returns its full result, with progress per stage', async () => {
    await connect(project());
    const progress: { progress: number; message?: string }[] = [];
    const result = value(
      await call(
        'launch_run',
        { task: 'Plan a garden shed', context: 'Budget 500 EUR', context_paths: ['notes.md'], agent_mode: 'single', refinement: true, wait: true },
        { onprogress: (p) => progress.push({ progress: p.progress, ...(p.message ? { message: p.message } : {}) }) },
      ),
    );
    expect(result).toMatchObject({ task: 'Plan a garden shed', pipeline: 'template:single-refine', status: 'completed', failure_reason: null, questions: [] });
    expect(result.final_response).toMatch(/^\[Simulated\] Response for stage: \w+/);
    expect(result.completed_nodes.length).toBeGreaterThan(2);
    const prompt = readFileSync(join(result.run_dir, result.completed_nodes[1] as string, 'prompt.md'), 'utf8');
    expect(prompt).toContain('Budget 500 EUR');
    expect(prompt).toContain('The shed must be 2 m wide.');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.progress)).toEqual(progress.map((_, i) => i + 1));
    expect(progress[0]?.message).toMatch(/completed$/);
  });

  it('launch_run without wait returns at once with the run; run_status follows it to the end; list_runs lists runs newest first', async () => {
    await connect(project());
    const first = value(await call('launch_run', { task: 'first', agent_mode: 'multi', refinement: false }));
    expect(first).toMatchObject({ task: 'first', pipeline: 'template:multi' });
    expect(first.id).toMatch(/\S/);
    expect(first.run_dir).toContain(join('runs', first.id));
    expect(['running', 'completed']).toContain(first.status);
    const done = await pollUntil(first.id, (r) => r.status === 'completed');
    expect(done.status).toBe('completed');
    expect(done.final_response).toBe('[Simulated] Response for stage: agent_1');

    const second = value(await call('launch_run', { task: 'second', wait: true }));
    const { runs } = value<{ runs: RunResult[] }>(await call('list_runs', {}));
    expect(runs.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(runs[0]).toEqual(second);
  });

  it('a project pipeline with a human gate: launch_run with wait returns at the question; answer_question continues it', async () => {
    await connect(project());
    const asked = value(await call('launch_run', { task: 'Review the changes', pipeline: 'review.dot', wait: true }));
    expect(asked).toMatchObject({ status: 'waiting', pipeline: 'review.dot', completed_nodes: ['start'] });
    const question = asked.questions[0];
    expect(question).toMatchObject({ node_id: 'review_gate', text: 'Review Changes' });
    expect(question?.options.map((o) => o.key)).toEqual(['A', 'F']);

    // A wrong answer is refused; the question stays.
    expect(refusal(await call('answer_question', { id: asked.id, question_id: 'nope', answer: 'A' }))).toMatch(/not pending.*ORCH_NOT_PENDING/s);

    // [F] Fix runs a stage and asks again; wait returns at the second question.
    const again = value(await call('answer_question', { id: asked.id, question_id: question?.id, answer: 'F', wait: true }));
    expect(again).toMatchObject({ status: 'waiting', completed_nodes: ['start', 'review_gate', 'fixes'] });
    expect(again.questions[0]?.id).not.toBe(question?.id);

    const answered = value(await call('answer_question', { id: asked.id, question_id: again.questions[0]?.id, answer: 'Approve' }));
    expect(answered.questions).toEqual([]);
    const done = await pollUntil(asked.id, (r) => r.status === 'completed');
    expect(done).toMatchObject({ status: 'completed', final_response: '[Simulated] Response for stage: ship_it' });
    expect(done.completed_nodes).toContain('ship_it');
  });

  it('cancel_run stops a run and returns its partial results; it stays resumable', async () => {
    const dir = project();
    await connect(dir);
    const started = value(await call('launch_run', { task: 'Review', pipeline: 'review.dot' }));
    await pollUntil(started.id, (r) => r.status === 'waiting');
    const cancelled = value(await call('cancel_run', { id: started.id }));
    expect(cancelled).toMatchObject({ id: started.id, status: 'cancelled', completed_nodes: ['start'], questions: [] });
    const manifest = JSON.parse(readFileSync(join(cancelled.run_dir, 'checkpoint.json'), 'utf8')) as { status?: string };
    expect(manifest.status).toBe('interrupted');
    // A run that is not running cannot be cancelled again.
    expect(refusal(await call('cancel_run', { id: started.id }))).toMatch(/is not running.*ORCH_RUN_NOT_RUNNING/s);
  });

  it('reports a run\'s tokens as status.json and the HTTP API do (input_tokens, output_tokens, total_tokens), in the output schema too', async () => {
    const backend = {
      run: async ({ report }: { report: { response(call: { model: string; durationMs: number; usage: { inputTokens: number; outputTokens: number; totalTokens: number } }): void } }) => {
        report.response({ model: 'm', durationMs: 1, usage: { inputTokens: 40, outputTokens: 2, totalTokens: 42 } });
        return 'done';
      },
    };
    const c = await connect(project(), undefined, async () => backend);
    const launch = (await c.listTools()).tools.find((t) => t.name === 'launch_run');
    const tokens = launch?.outputSchema?.properties?.tokens as { anyOf?: { properties?: Record<string, unknown> }[] };
    expect(Object.keys(tokens.anyOf?.find((s) => s.properties)?.properties ?? {})).toEqual(['input_tokens', 'output_tokens', 'total_tokens']);
    const result = value(await call('launch_run', { task: 'Count', wait: true }));
    expect(result.status).toBe('completed');
    expect(result.tokens).toEqual({ input_tokens: 40, output_tokens: 2, total_tokens: 42 });
    expect(value<{ runs: RunResult[] }>(await call('list_runs', {})).runs[0]?.tokens).toEqual(result.tokens);
  });

  it('returns bad parameters, paths outside the project, unknown runs and refused pipelines as tool errors', async () => {
    const dir = project();
    await connect(dir);
    expect(refusal(await call('launch_run', { task: '  ' }))).toMatch(/task is empty/);
    expect(refusal(await call('launch_run', {}))).toMatch(/task/);
    expect(refusal(await call('launch_run', { task: 't', shell: 'rm -rf /' }))).toMatch(/shell/);
    expect(refusal(await call('launch_run', { task: 't', agent_mode: 'many' }))).toMatch(/agent_mode/);
    expect(refusal(await call('launch_run', { task: 't', wait: 'yes' }))).toMatch(/wait/);
    expect(refusal(await call('launch_run', { task: 't', context_paths: ['../etc/passwd'] }))).toMatch(/outside.*ORCH_BAD_REQUEST/s);
    expect(refusal(await call('launch_run', { task: 't', context_paths: ['/etc/passwd'] }))).toMatch(/outside/);
    expect(refusal(await call('launch_run', { task: 't', pipeline: '../x.dot' }))).toMatch(/outside/);
    expect(refusal(await call('launch_run', { task: 't', pipeline: 'missing.dot' }))).toMatch(/missing\.dot is not a file of the project/);
    expect(refusal(await call('launch_run', { task: 't', pipeline: 'tools.dot' }))).toMatch(/--allow-tools/);
    expect(refusal(await call('run_status', { id: 'no-such-run' }))).toMatch(/no run "no-such-run".*ORCH_RUN_NOT_FOUND/s);
    expect(refusal(await call('run_status', {}))).toMatch(/id/);
    expect(refusal(await call('cancel_run', { id: '../../etc' }))).toMatch(/ORCH_RUN_NOT_FOUND/);
    expect(refusal(await call('answer_question', { id: 'no-such-run', question_id: 'q', answer: 'A' }))).toMatch(/ORCH_RUN_NOT_FOUND/);
    // Nothing was started, and the server still answers.
    expect(value<{ runs: RunResult[] }>(await call('list_runs', {})).runs).toEqual([]);
  });
});
