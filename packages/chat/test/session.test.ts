import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages } from '@langchain/core/messages';
import { CallbackInterviewer, QueueInterviewer, type Interviewer } from '@orchestra/core';
import { ChatCompletionsOpenAI, createModelBackend, emptyConfig } from '@orchestra/llm';
import { fixturePath, httpError, reply, startScriptedOpenAIServer, toolCall, toolCalls, type ScriptedOpenAIServer } from '@orchestra/testing';
import { InteractiveSession, ProjectWorkspace, RunLauncher, readSessionRecord, type SessionTransition } from '../src/index.js';

const CHILD = fileURLToPath(new URL('./support/session-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let model: ScriptedOpenAIServer;
const launchers: RunLauncher[] = [];
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  for (const l of launchers.splice(0)) await l.close();
  await model.close();
});

function chatModel() {
  return new ChatCompletionsOpenAI({ model: 'session-model', apiKey: 'k', configuration: { baseURL: model.url }, maxRetries: 0, streamUsage: true });
}

function project(): ProjectWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-session-'));
  writeFileSync(join(dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
  return new ProjectWorkspace(dir).ensure();
}

function session(workspace: ProjectWorkspace, interviewer: Interviewer, resume = false) {
  const launcher = new RunLauncher({ projectDir: workspace.dir, simulate: true, checkpointIntervalMs: 0 });
  launchers.push(launcher);
  const s = InteractiveSession.open({ model: chatModel(), launcher, workspace, interviewer }, resume);
  const said: string[] = [];
  const transitions: SessionTransition[] = [];
  s.on('agent', (t) => said.push(t));
  s.on('transition', (t) => transitions.push(t));
  return { s, launcher, said, transitions, path: () => transitions.map((t) => `${t.event}>${t.to}`) };
}

const toolResults = (i: number) => (model.completions[i]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));

describe('the interactive session', { timeout: 30_000 }, () => {
  it('answers a simple question directly, with no run', async () => {
    model.enqueue(reply('Paris.', { usage: { promptTokens: 30, completionTokens: 2 } }));
    const { s, said, path } = session(project(), new QueueInterviewer([]));
    await s.send('What is the capital of France?');
    expect(said).toEqual(['Paris.']);
    expect(path()).toEqual(['message>CHATTING', 'reply>IDLE']);
    expect(s.runIds()).toEqual([]);
    // The orchestrator section comes first in the system prompt; launch_run is offered.
    const request = model.completions[0];
    expect(String(request?.messages?.[0]?.content)).toMatch(/^# Orchestrating runs with launch_run/);
    expect(request?.tools?.map((t) => (t as { function: { name: string } }).function.name)).toEqual(['launch_run', 'update_context', 'save_deliverable']);
    expect((await s.tokens()).session).toEqual({ input_tokens: 30, output_tokens: 2, total_tokens: 32 });
    // Saved as status.json records tokens.
    expect(JSON.parse(readFileSync(s.options.workspace.sessionFile, 'utf8'))).toMatchObject({ format: 'orchestra.chat-session/2', usage: { input_tokens: 30, output_tokens: 2, total_tokens: 32 } });
  });

  it('launches a run for a complex request: approval, run, result summarised', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Write a release plan', agent_mode: 'single', refinement: true, context: 'ship Friday' }), reply('The plan is ready: see the run.'));
    const workspace = project();
    const asked: string[] = [];
    const interviewer = new CallbackInterviewer((q) => {
      asked.push(q.text);
      return { value: 'A', selectedOption: { key: 'A', label: 'Approve' } };
    });
    const { s, said, path } = session(workspace, interviewer);
    await s.send('Please write a release plan for Friday');
    expect(path()).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'complete>PROCESSING_RESULTS', 'summarized>IDLE']);
    expect(asked[0]).toContain('Launch this run?\nRun: Write a release plan\n  pipeline: template:single-refine');
    expect(said).toEqual(['The plan is ready: see the run.']);
    const [id] = s.runIds();
    const result = JSON.parse(toolResults(1)[0] ?? '{}');
    expect(result).toMatchObject({ id, status: 'completed', pipeline: 'template:single-refine', final_response: '[Simulated] Response for stage: revise' });
    expect(JSON.parse(readFileSync(join(workspace.runsDir, id as string, 'run_description.json'), 'utf8'))).toMatchObject({ task: 'Write a release plan', mode: 'single-refine' });
  });

  it('a cancelled approval launches nothing; an edit goes back to the agent as the next message', async () => {
    model.enqueue(toolCall('launch_run', { task: 'A' }));
    const { s, path } = session(project(), new QueueInterviewer(['C']));
    await s.send('do A');
    expect(path()).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'cancel>IDLE']);
    expect(s.runIds()).toEqual([]);

    model.enqueue(toolCall('launch_run', { task: 'B' }), reply('Changed to use C instead.'));
    const edited = session(project(), new QueueInterviewer(['E', 'use C instead']));
    await edited.s.send('do B');
    expect(edited.path()).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'cancel>IDLE', 'message>CHATTING', 'reply>IDLE']);
    expect(toolResults(2)).toEqual(['The person wants changes before launching: use C instead']);
    expect(model.completions[2]?.lastUserText).toBe('use C instead');
  });

  it('a failing run comes back with its partial results', async () => {
    // The run's stage calls a model that refuses the request (400: not retried): the run fails there.
    model.enqueue(toolCall('launch_run', { task: 'Draft it', agent_mode: 'single', refinement: true }), httpError(400, { message: 'bad request' }), reply('It failed at the draft.'));
    const workspace = project();
    const launcher = new RunLauncher({
      projectDir: workspace.dir,
      checkpointIntervalMs: 0,
      backendFor: async () => createModelBackend({ config: emptyConfig(workspace.dir), env: { OPENAI_BASE_URL: model.url, OPENAI_API_KEY: 'k' }, flags: { model: 'run-model', backend: 'chat' } }),
    });
    launchers.push(launcher);
    const s = new InteractiveSession({ model: chatModel(), launcher, workspace, interviewer: new QueueInterviewer(['A']) });
    const transitions: string[] = [];
    s.on('transition', (t) => transitions.push(`${t.event}>${t.to}`));
    await s.send('try it');
    expect(transitions).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'fail>PROCESSING_PARTIAL', 'summarized>IDLE']);
    const result = JSON.parse(toolResults(2)[0] ?? '{}');
    expect(result).toMatchObject({ status: 'failed', completed_nodes: ['start', 'draft'] });
    expect(result.failure_reason).toContain('400');
    expect(model.completions[1]?.model).toBe('run-model');
  });

  it('a run question nobody can answer (input ended) stops the run; the agent gets what was done', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }), reply('Stopped at the review gate.'));
    const interviewer = new CallbackInterviewer((q) => (q.stage === 'launch_run' ? { value: 'A', selectedOption: { key: 'A', label: 'Approve' } } : { value: 'SKIPPED' }));
    const { s, path } = session(project(), interviewer);
    await s.send('review it');
    expect(path()).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'cancel_run>PROCESSING_CANCELLED', 'summarized>IDLE']);
    expect(JSON.parse(toolResults(1)[0] ?? '{}')).toMatchObject({ status: 'cancelled', completed_nodes: ['start'] });
  });

  it('cancels a run mid-way (not the session), queues messages sent meanwhile, and the agent gets both', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }), reply('Cancelled; the review had not started.'));
    let current: InteractiveSession | undefined;
    const interviewer = new CallbackInterviewer(async (q, options) => {
      if (q.stage === 'launch_run') return { value: 'A', selectedOption: { key: 'A', label: 'Approve' } };
      // The run's gate, asked in the session, labelled with the run: the person types a message, then cancels.
      expect(q.text).toMatch(/^\[run \S+\] Review Changes$/);
      await current?.send('also check the docs');
      await current?.cancelRun();
      return new Promise((_, reject) => options.signal?.addEventListener('abort', () => reject(options.signal?.reason)));
    });
    const { s, path } = session(project(), interviewer);
    current = s;
    const queued: string[] = [];
    s.on('queued', (m) => queued.push(m));
    await s.send('review it');
    expect(queued).toEqual(['also check the docs']);
    expect(path()).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'cancel_run>PROCESSING_CANCELLED', 'summarized>IDLE']);
    const result = JSON.parse(toolResults(1)[0] ?? '{}');
    expect(result).toMatchObject({ status: 'cancelled', completed_nodes: ['start'] });
    expect(model.completions[1]?.lastUserText).toBe('(Sent while the run was active:)\nalso check the docs');
  });

  it('keeps the workspace: CONTEXT.md in the prompt and editable, filepaths.json given to every run', async () => {
    const workspace = project();
    writeFileSync(join(workspace.dir, 'notes.md'), 'Use oak.\n');
    writeFileSync(workspace.filepathsFile, JSON.stringify({ paths: ['notes.md'] }));
    model.enqueue(toolCall('update_context', { text: '# Project context\n\nThe shed is for bikes.' }), toolCall('launch_run', { task: 'Plan the shed' }));
    // Then the agent keeps the run's answer in deliverables/ (and tries a path outside it), and sums up.
    model.respondWith((request) => {
      const last = request.messages?.at(-1);
      if (last?.role === 'tool' && String(last.content).startsWith('{')) {
        const { id } = JSON.parse(String(last.content)) as { id: string };
        return toolCalls([
          { name: 'save_deliverable', arguments: { name: 'plan.md', from_run: { id, file: 'work/response.md' } } },
          { name: 'save_deliverable', arguments: { name: '../escape.md', content: 'x' } },
        ]);
      }
      return reply('Planned.');
    });
    const { s } = session(workspace, new QueueInterviewer(['A']));
    await s.send('Remember: bikes. Then plan it.');
    expect(workspace.context()).toBe('# Project context\n\nThe shed is for bikes.\n');
    expect(String(model.completions[1]?.messages?.[0]?.content)).toContain('The shed is for bikes.');
    const [id] = s.runIds();
    const prompt = readFileSync(join(workspace.runsDir, id as string, 'work', 'prompt.md'), 'utf8');
    expect(prompt).toContain('### notes.md\nUse oak.');
    expect(readFileSync(join(workspace.deliverablesDir, 'plan.md'), 'utf8')).toBe('[Simulated] Response for stage: work');
    const results = toolResults(3);
    expect(results.slice(-2)[0]).toMatch(/^saved deliverables\/plan\.md/);
    expect(results.slice(-1)[0]).toMatch(/^save_deliverable refused: .*outside/);
    expect(existsSync(join(workspace.dir, 'escape.md'))).toBe(false);
  });

  it('is saved after every step, and --resume after a kill mid-run re-attaches to the run without calling the model for past turns', async () => {
    const workspace = project();
    model.enqueue(reply('Hello.'), toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }));
    // A real process, killed with SIGKILL while its run waits at the gate.
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, workspace.dir, model.url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    for (let i = 0; i < 600 && !out.includes('WAITING'); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(out).toContain('WAITING');
    child.kill('SIGKILL');
    await new Promise((r) => child.on('exit', r));
    const record = readSessionRecord(workspace.sessionFile);
    expect(record).toMatchObject({ state: 'RUNNING', queue: [] });
    const runId = record?.active?.run as string;
    expect(record?.runs).toEqual([runId]);
    expect(model.completions.length).toBe(2);

    model.enqueue(reply('The review shipped.'));
    const second = session(workspace, new QueueInterviewer(['A']), true);
    expect(second.s.state).toBe('RUNNING');
    await second.s.recover();
    expect(second.path()).toEqual(['complete>PROCESSING_RESULTS', 'summarized>IDLE']);
    expect(second.said).toEqual(['The review shipped.']);
    // One model call: the summary. The past turns came from the saved transcript.
    expect(model.completions.length).toBe(3);
    const messages = model.completions[2]?.messages ?? [];
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hi', 'review it']);
    expect(JSON.parse(String(messages.at(-1)?.content))).toMatchObject({ id: runId, status: 'completed', completed_nodes: ['start', 'review_gate', 'ship_it', 'exit'] });
  });

  it('a session saved before tokens took status.json\'s shape (format /1, usage {input, output, total}) still resumes, its tokens carried on', async () => {
    const workspace = project();
    const old = {
      format: 'orchestra.chat-session/1',
      state: 'IDLE',
      transcript: mapChatMessagesToStoredMessages([new HumanMessage('hi'), new AIMessage('Hello.')]),
      queue: [],
      runs: [],
      active: null,
      usage: { input: 100, output: 10, total: 110 },
      transitions: [{ from: 'IDLE', event: 'message', to: 'CHATTING', at: '2026-01-01T00:00:00.000Z' }, { from: 'CHATTING', event: 'reply', to: 'IDLE', at: '2026-01-01T00:00:01.000Z' }],
    };
    writeFileSync(workspace.sessionFile, JSON.stringify(old));
    expect(readSessionRecord(workspace.sessionFile)).toMatchObject({ format: 'orchestra.chat-session/2', usage: { input_tokens: 100, output_tokens: 10, total_tokens: 110 } });

    model.enqueue(reply('Again.', { usage: { promptTokens: 30, completionTokens: 2 } }));
    const { s, said } = session(workspace, new QueueInterviewer([]), true);
    expect((await s.tokens()).session).toEqual({ input_tokens: 100, output_tokens: 10, total_tokens: 110 });
    await s.send('again');
    expect(said).toEqual(['Again.']);
    expect(model.completions[0]?.messages?.filter((m) => m.role !== 'system').map((m) => m.content)).toEqual(['hi', 'Hello.', 'again']);
    expect((await s.tokens()).session).toEqual({ input_tokens: 130, output_tokens: 12, total_tokens: 142 });
    // Saved again in the current format.
    expect(JSON.parse(readFileSync(workspace.sessionFile, 'utf8'))).toMatchObject({ format: 'orchestra.chat-session/2', usage: { input_tokens: 130, output_tokens: 12, total_tokens: 142 } });
  });

  it('a damaged usage in a saved session is refused with the file named', () => {
    const workspace = project();
    writeFileSync(workspace.sessionFile, JSON.stringify({ format: 'orchestra.chat-session/1', state: 'IDLE', transcript: [], queue: [], runs: [], active: null, usage: { input: 'lots' }, transitions: [] }));
    expect(() => readSessionRecord(workspace.sessionFile)).toThrow(/session\.json is not an orchestra chat session/);
  });

  it('a failed model call ends the turn without a reply: the person is told, the session is IDLE and goes on', async () => {
    model.enqueue(httpError(401, { message: 'invalid key' }), reply('Now it works.'));
    const { s, said, path } = session(project(), new QueueInterviewer([]));
    const failures: string[] = [];
    s.on('failure', (m) => failures.push(m));
    await s.send('hello?');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('401');
    expect(s.state).toBe('IDLE');
    await s.send('again');
    expect(said).toEqual(['Now it works.']);
    expect(path()).toEqual(['message>CHATTING', 'reply>IDLE', 'message>CHATTING', 'reply>IDLE']);
    // The conversation kept both messages.
    expect(model.completions[1]?.messages?.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hello?', 'again']);
  });

  it('a session stopped while a proposal waits for approval asks again on --resume, and goes on', async () => {
    const workspace = project();
    model.enqueue(toolCall('launch_run', { task: 'Plan it', agent_mode: 'single' }));
    // Nobody answers the first time (the process is gone as far as the session is concerned).
    const first = session(workspace, new CallbackInterviewer(() => new Promise(() => {})));
    void first.s.send('plan it');
    for (let i = 0; i < 200 && readSessionRecord(workspace.sessionFile)?.state !== 'AWAITING_APPROVAL'; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(readSessionRecord(workspace.sessionFile)?.state).toBe('AWAITING_APPROVAL');

    model.enqueue(reply('Planned.'));
    const asked: string[] = [];
    const second = session(
      workspace,
      new CallbackInterviewer((q) => {
        asked.push(q.text);
        return { value: 'A', selectedOption: { key: 'A', label: 'Approve' } };
      }),
      true,
    );
    await second.s.recover();
    expect(asked[0]).toContain('Launch this run?\nRun: Plan it');
    expect(second.path()).toEqual(['approve>RUNNING', 'complete>PROCESSING_RESULTS', 'summarized>IDLE']);
    expect(second.said).toEqual(['Planned.']);
    expect(model.completions).toHaveLength(2);
  });
});
