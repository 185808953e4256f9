import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { EventEmitter } from 'eventemitter3';
import { CallbackInterviewer, type Answer } from '@orchestra/core';
import { ChatCompletionsOpenAI } from '@orchestra/llm';
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

describe('bindSessionTools', () => {
  it('refuses a model that cannot call tools', () => {
    expect(() => bindSessionTools({} as BaseChatModel)).toThrow('the session model cannot call tools');
  });
});
