import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { EventEmitter } from 'eventemitter3';
import { CallbackInterviewer, type Answer } from '@orchestra/core';
import { ChatCompletionsOpenAI } from '@orchestra/llm';
import { CUT_OFF_CALL_RESULT } from '@orchestra/llm/agent';
import { reply, startScriptedOpenAIServer, toolCall, toolCalls, type ScriptedOpenAIServer } from '@orchestra/testing';
import { MAX_CALLS_PER_TURN, ProjectWorkspace, SessionMachine, type SessionEvents } from '../src/index.js';
import { agentTurn } from '../src/session/agent-turn.js';
import type { SessionContext } from '../src/session/session-context.js';
import { sessionDataOf } from '../src/session/session-store.js';
import { bindSessionTools } from '../src/session/session-tools.js';
import { FakeRunPort } from './support/fake-run-port.js';

let model: ScriptedOpenAIServer;
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await model.close();
});

const approve: Answer = { value: 'A', selectedOption: { key: 'A', label: 'Approve' } };
const cancel: Answer = { value: 'C', selectedOption: { key: 'C', label: 'Cancel' } };

/** A session context over a fake run port, in CHATTING with `message` just received. */
function chatting(message: string, answers: Answer[] = []) {
  const port = new FakeRunPort();
  const machine = new SessionMachine();
  const events = new EventEmitter<SessionEvents>();
  const transitions: string[] = [];
  const said: string[] = [];
  machine.on('transition', (t) => transitions.push(`${t.event}>${t.to}`));
  events.on('agent', (text) => said.push(text));
  const ctx: SessionContext = {
    machine,
    data: sessionDataOf(),
    runs: port,
    workspace: new ProjectWorkspace(mkdtempSync(join(tmpdir(), 'orchestra-turn-'))).ensure(),
    interviewer: new CallbackInterviewer(() => answers.shift() ?? cancel),
    requireApproval: true,
    events,
    save: () => {},
    cancelRequested: false,
    detached: false,
  };
  ctx.data.transcript.push(new HumanMessage(message));
  machine.fire('message');
  const agent = { model: bindSessionTools(new ChatCompletionsOpenAI({ model: 'session-model', apiKey: 'k', configuration: { baseURL: model.url }, maxRetries: 0 })) };
  /** The answers the agent got to its tool calls, in order. */
  const toolAnswers = () => ctx.data.transcript.filter((m): m is ToolMessage => m instanceof ToolMessage).map((m) => String(m.content));
  return { ctx, port, agent, transitions, said, toolAnswers, turn: () => agentTurn(ctx, agent) };
}

describe('the agent turn', { timeout: 30_000 }, () => {
  it(`stops a turn that keeps calling tools after ${MAX_CALLS_PER_TURN} model calls, and is back in IDLE`, async () => {
    for (let i = 0; i <= MAX_CALLS_PER_TURN; i += 1) model.enqueue(toolCall('update_context', { text: `note ${i}` }));
    const { turn, said, transitions, toolAnswers } = chatting('take notes');
    await turn();
    expect(model.completions).toHaveLength(MAX_CALLS_PER_TURN);
    expect(toolAnswers()).toEqual(Array(MAX_CALLS_PER_TURN).fill('CONTEXT.md updated.'));
    expect(said).toEqual(['(the agent kept calling tools; the turn was stopped)']);
    expect(transitions).toEqual(['message>CHATTING', 'reply>IDLE']);
  });

  it('answers a call of a tool it does not have, and goes on', async () => {
    model.enqueue(toolCall('nope', {}), reply('Sorry.'));
    const { turn, said, toolAnswers } = chatting('hi');
    await turn();
    expect(toolAnswers()).toEqual(['there is no tool nope']);
    expect(said).toEqual(['Sorry.']);
  });

  it('ends the turn when the person cancels a proposed run: the calls after it are answered, not run', async () => {
    model.enqueue(toolCalls([{ name: 'launch_run', arguments: { task: 'A' } }, { name: 'update_context', arguments: { text: 'after A' } }]), reply('never asked for'));
    const { ctx, turn, port, transitions, toolAnswers } = chatting('do A', [cancel]);
    await turn();
    expect(toolAnswers()).toEqual(['The person cancelled this run. Nothing was launched.', 'not run: the launch before it was cancelled']);
    expect(model.completions).toHaveLength(1);
    expect(ctx.workspace.context()).not.toContain('after A');
    expect(port.calls.some((c) => c.startsWith('start'))).toBe(false);
    expect(transitions).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'cancel>IDLE']);
  });

  it('runs one run per message: a second launch_run in the same reply is refused', async () => {
    model.enqueue(toolCalls([{ name: 'launch_run', arguments: { task: 'A' } }, { name: 'launch_run', arguments: { task: 'B' } }]), reply('A is done.'));
    const { ctx, turn, port, transitions, toolAnswers, said } = chatting('do A and B', [approve, approve]);
    await turn();
    expect(port.calls.filter((c) => c.startsWith('start'))).toEqual(['start r1']);
    expect(JSON.parse(toolAnswers()[0] ?? '{}')).toMatchObject({ id: 'r1', status: 'completed' });
    expect(toolAnswers()[1]).toBe('launch_run refused: one run per message; report on the run that ended first');
    expect(transitions).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'complete>PROCESSING_RESULTS', 'summarized>IDLE']);
    expect(said).toEqual(['A is done.']);
    expect(ctx.data.runs).toEqual(['r1']);
    expect(ctx.data.active).toBeNull();
  });

  it('tells the agent why an approved run could not start, and ends as a failed run', async () => {
    model.enqueue(toolCall('launch_run', { task: 'A' }), reply('It did not start.'));
    const { ctx, turn, port, transitions, toolAnswers } = chatting('do A', [approve]);
    port.startError = new Error('the pipeline has errors');
    await turn();
    expect(toolAnswers()).toEqual(['launch_run failed before the run started: the pipeline has errors']);
    expect(transitions).toEqual(['message>CHATTING', 'launch>AWAITING_APPROVAL', 'approve>RUNNING', 'fail>PROCESSING_PARTIAL', 'summarized>IDLE']);
    expect(ctx.data.runs).toEqual([]);
  });

  it('gives a refused proposal (bad parameters) back to the agent without asking the person', async () => {
    model.enqueue(toolCall('launch_run', { task: '' }), reply('I need a task.'));
    const { turn, transitions, toolAnswers } = chatting('do it', []);
    await turn();
    expect(toolAnswers()).toEqual(['launch_run: task is empty']);
    expect(transitions).toEqual(['message>CHATTING', 'reply>IDLE']);
  });
});

describe('the session tools check their arguments before acting', { timeout: 30_000 }, () => {
  it('update_context with a wrong argument name is refused and CONTEXT.md is left as it was', async () => {
    model.enqueue(
      toolCalls([
        { name: 'update_context', arguments: { content: 'Everything is gone' } },
        { name: 'update_context', arguments: { text: 'Two texts', content: 'x' } },
        { name: 'update_context', arguments: { text: 42 } },
      ]),
      reply('Sorry.'),
    );
    const { ctx, turn, toolAnswers } = chatting('note it');
    ctx.workspace.writeContext('# Project context\n\nKeep me.\n');
    await turn();
    expect(toolAnswers()).toEqual([
      'update_context refused: text is missing; the call has unknown key "content". Nothing was changed.',
      'update_context refused: the call has unknown key "content". Nothing was changed.',
      'update_context refused: text must be a string, not a number. Nothing was changed.',
    ]);
    expect(ctx.workspace.context()).toBe('# Project context\n\nKeep me.\n');
  });

  it('a call cut off at the output token limit is not run, though LangChain completed its JSON', async () => {
    model.enqueue(toolCalls([{ name: 'update_context', arguments: '{"text":"# Project context\\n\\nThe first half of the no' }], { finishReason: 'length' }), reply('It was cut; I will send it in parts.'));
    const { ctx, turn, toolAnswers } = chatting('note it');
    ctx.workspace.writeContext('# Project context\n\nKeep me.\n');
    await turn();
    expect(toolAnswers()).toEqual([CUT_OFF_CALL_RESULT]);
    expect(ctx.workspace.context()).toBe('# Project context\n\nKeep me.\n');
  });

  it('save_deliverable with an unknown argument, or with both content and from_run, saves nothing', async () => {
    model.enqueue(
      toolCalls([
        { name: 'save_deliverable', arguments: { name: 'a.md', content: 'x', mode: 'append' } },
        { name: 'save_deliverable', arguments: { name: 'b.md', content: 'x', from_run: { id: 'r1', file: 'work/response.md' } } },
        { name: 'save_deliverable', arguments: { name: 'c.md' } },
        { name: 'save_deliverable', arguments: { name: 'd.md', content: 'kept' } },
      ]),
      reply('Done.'),
    );
    const { ctx, turn, toolAnswers } = chatting('keep it');
    await turn();
    expect(toolAnswers()).toEqual([
      'save_deliverable refused: the call has unknown key "mode". Nothing was changed.',
      'save_deliverable refused: give either content or from_run, not both. Nothing was changed.',
      'save_deliverable refused: give content or from_run. Nothing was changed.',
      'saved deliverables/d.md (4 characters)',
    ]);
    expect(readdirSync(ctx.workspace.deliverablesDir)).toEqual(['d.md']);
  });

  it('launch_run with context_paths that is not a list is refused as the launcher refuses it, the project\'s paths not mixed in', async () => {
    model.enqueue(toolCall('launch_run', { task: 'A', context_paths: 'notes.md' }), reply('Fixed.'));
    const { ctx, turn, port, toolAnswers } = chatting('do A');
    writeFileSync(ctx.workspace.filepathsFile, JSON.stringify({ paths: ['specs'] }));
    await turn();
    expect(port.calls[0]).toBe('prepare {"task":"A","context_paths":"notes.md"}');
    expect(toolAnswers()).toHaveLength(1);
  });
});

describe('bindSessionTools', () => {
  it('refuses a model that cannot call tools', () => {
    expect(() => bindSessionTools({} as BaseChatModel)).toThrow('the session model cannot call tools');
  });
});
