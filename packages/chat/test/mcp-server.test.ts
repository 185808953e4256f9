import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPipeline } from '@orchestra/core';
import { fixturePath } from '@orchestra/testing';
import { MCP_TOOLS, ORCHESTRATOR_SECTION, RunLauncher, createMcpServer, type RunLauncherOptions, type RunResult } from '../src/index.js';

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

async function connect(dir: string, version?: string, backendFor?: RunLauncherOptions['backendFor'], more: Partial<RunLauncherOptions> = {}): Promise<Client> {
  launcher = new RunLauncher({ projectDir: dir, checkpointIntervalMs: 0, ...(backendFor ? { backendFor } : { simulate: true }), ...more });
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
      ['agent_mode', 'agent_system_prompts', 'agents', 'context', 'context_paths', 'coordination_overrides', 'execute_after_planning', 'pipeline', 'planning_mode', 'refinement', 'task', 'wait'].sort(),
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
    expect(Object.keys(tokens.anyOf?.find((s) => s.properties)?.properties ?? {})).toEqual(['input_tokens', 'output_tokens', 'total_tokens', 'cost']);
    const result = value(await call('launch_run', { task: 'Count', wait: true }));
    expect(result.status).toBe('completed');
    expect(result.tokens).toEqual({ input_tokens: 40, output_tokens: 2, total_tokens: 42 });
    expect(value<{ runs: RunResult[] }>(await call('list_runs', {})).runs[0]?.tokens).toEqual(result.tokens);
  });

  it('launch_run takes coordination_overrides into the run\'s template, and refuses an unknown one by name', async () => {
    await connect(project());
    const result = value(await call('launch_run', { task: 'Compare', agent_mode: 'multi', refinement: false, coordination_overrides: { max_parallel: 1, voting_rounds: 2 }, wait: true }));
    expect(result.status).toBe('completed');
    expect(result.completed_nodes).toEqual(['start', 'fan', 'join', 'vote_1', 'vote_2', 'vote2_1', 'vote2_2', 'tally', 'exit']);
    expect(storedNodes(result).find((n) => n.id === 'fan')?.attributes.max_parallel).toBe('1');
    // The MCP SDK's check of the tool's input schema refuses it first, naming the key and where it is.
    expect(refusal(await call('launch_run', { task: 't', coordination_overrides: { max_paralel: 1 } }))).toMatch(/Unrecognized key: "max_paralel" at coordination_overrides/);
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
    // Every tool checks its arguments by its schema before acting: a wrong name is refused by name.
    expect(refusal(await call('answer_question', { id: 'no-such-run', question_id: 'q', text: 'A' }))).toMatch(/answer[\s\S]*text|text[\s\S]*answer/);
    expect(refusal(await call('cancel_run', { run_id: 'x' }))).toMatch(/run_id/);
    expect(refusal(await call('list_runs', { all: true }))).toMatch(/all/);
    // Nothing was started, and the server still answers.
    expect(value<{ runs: RunResult[] }>(await call('list_runs', {})).runs).toEqual([]);
  });
});

/** The nodes of the pipeline a run stored (`pipeline.dot` in its run directory), as orchestra reads it back. */
function storedNodes(result: RunResult): { id: string; attributes: Readonly<Record<string, string>> }[] {
  const source = readFileSync(join(result.run_dir, 'pipeline.dot'), 'utf8');
  const loaded = loadPipeline(source);
  expect(loaded.ok, JSON.stringify(loaded.diagnostics)).toBe(true);
  return [...(loaded.graph?.nodes.values() ?? [])];
}

/** Every file under `dir`, relative to it. */
function filesIn(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as { path?: string }).path ?? dir, e.name).slice(dir.length + 1));
}

describe('launch_run: values put into run-mode templates stay values', () => {
  it('a system prompt with double quotes reaches the model intact', async () => {
    await connect(project());
    const result = value(await call('launch_run', { task: 'Greet the user', agent_mode: 'single', agent_system_prompts: { '*': 'Say "hi" first' }, wait: true }));
    expect(result).toMatchObject({ status: 'completed', pipeline: 'template:single', failure_reason: null });
    // What the (simulated) model was sent.
    const prompt = readFileSync(join(result.run_dir, 'work', 'prompt.md'), 'utf8');
    expect(prompt).toContain('Instructions for you: Say "hi" first\n\nTask: Greet the user');
    // The run's own copy of the pipeline holds the prompt as one value.
    const work = storedNodes(result).find((n) => n.id === 'work');
    expect(work?.attributes.prompt).toMatch(/^Instructions for you: Say "hi" first\n\nTask: \{\{task\}\}/);
  });

  it('a per-agent system prompt with double quotes reaches that agent intact', async () => {
    await connect(project());
    const result = value(await call('launch_run', { task: 'Greet', agents: ['fast', 'smart'], refinement: false, agent_system_prompts: { smart: 'Say "hi" first' }, wait: true }));
    expect(result).toMatchObject({ status: 'completed', pipeline: 'template:multi' });
    expect(readFileSync(join(result.run_dir, 'agent_2', 'prompt.md'), 'utf8')).toContain('Instructions for you: Say "hi" first\n\nTask: Greet');
    expect(readFileSync(join(result.run_dir, 'agent_1', 'prompt.md'), 'utf8')).not.toContain('Say "hi" first');
  });

  // launch_run does not check agent names against orchestra.yaml (a simulated run calls no model, and the
  // configured backend resolves aliases only when a stage runs), so this name reaches the template as it is.
  // The server allows tools here: an injected tool node would be accepted and run, not refused.
  const INJECTION = 'fast", shape=parallelogram, tool_command="echo pwned';
  it.each([
    ['single', { agents: [INJECTION] }, ['work']],
    ['multi', { agents: [INJECTION, 'smart'], refinement: false }, ['agent_1', 'agent_2']],
  ] as const)('an agent name with quotes adds no tool node (%s)', async (mode, args, stages) => {
    await connect(project(), undefined, undefined, { allowTools: true });
    const result = value(await call('launch_run', { task: 'Say hello', ...args, wait: true }));
    expect(result).toMatchObject({ status: 'completed', pipeline: `template:${mode}`, failure_reason: null });
    const nodes = storedNodes(result);
    expect(nodes.filter((n) => n.attributes.tool_command !== undefined || n.attributes.shape === 'parallelogram').map((n) => n.id)).toEqual([]);
    // The whole name is the first agent's model alias, nothing more.
    expect(nodes.find((n) => n.id === stages[0])?.attributes.llm_model).toBe(INJECTION);
    // Nothing ran a command: no tool output anywhere in the run; every agent stage was an LLM stage.
    expect(filesIn(result.run_dir).filter((f) => basename(f) === 'stdout.log')).toEqual([]);
    for (const stage of stages) expect(readFileSync(join(result.run_dir, stage, 'response.md'), 'utf8')).toBe(`[Simulated] Response for stage: ${stage}`);
    expect(result.final_response).toBe(`[Simulated] Response for stage: ${stages[0]}`);
  });
});

describe('launch_run: a pipeline outside the project', () => {
  /** A project, and beside it (a sibling directory) a valid pipeline whose tool node would leave a marker file if it ran. */
  function projectAndOutsider(): { dir: string; outside: string; marker: string } {
    const dir = project();
    const sibling = mkdtempSync(join(dirname(dir), 'orchestra-mcp-outside-'));
    const marker = join(sibling, 'ran.txt');
    const outside = join(sibling, 'evil.dot');
    writeFileSync(
      outside,
      `digraph Evil {\n    start [shape=Mdiamond]\n    exit  [shape=Msquare]\n    mark  [shape=parallelogram, tool_command="echo ran > '${marker}'"]\n    start -> mark -> exit\n}\n`,
    );
    return { dir, outside, marker };
  }

  it('the outside pipeline is valid and would run (the control: copied into the project, it leaves its marker)', async () => {
    const { dir, outside, marker } = projectAndOutsider();
    writeFileSync(join(dir, 'inside.dot'), readFileSync(outside, 'utf8'));
    await connect(dir, undefined, undefined, { allowTools: true });
    expect(value(await call('launch_run', { task: 't', pipeline: 'inside.dot', wait: true })).status).toBe('completed');
    expect(existsSync(marker)).toBe(true);
  });

  it('refuses an existing pipeline outside the project (relative, absolute, or through a link) and runs nothing', async () => {
    const { dir, outside, marker } = projectAndOutsider();
    symlinkSync(outside, join(dir, 'linked.dot'));
    mkdirSync(join(dir, 'sub'));
    await connect(dir, undefined, undefined, { allowTools: true });
    const relativePath = join('..', basename(dirname(outside)), 'evil.dot');
    for (const pipeline of [relativePath, join('sub', '..', relativePath), outside, 'linked.dot']) {
      const result = await call('launch_run', { task: 't', pipeline, wait: true });
      const text = (result.content[0] as { type: 'text'; text: string }).text;
      expect.soft(result.isError ? text : `not refused: ${text}`, pipeline).toMatch(/outside.*ORCH_BAD_REQUEST/s);
    }
    expect.soft(existsSync(marker), 'the outside pipeline ran its tool node').toBe(false);
    expect.soft(value<{ runs: RunResult[] }>(await call('list_runs', {})).runs).toEqual([]);
    expect(existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : []).toEqual([]);
  });
});
