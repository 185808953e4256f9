import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { AnswerLater, QueueInterviewer, createDefaultRegistry, resumePipeline, type Interviewer, type Question } from '@orchestra/core';
import { describe, expect, it } from 'vitest';
import { createChatBackend } from '../../src/backends/langchain-backend.js';
import { dot, eventsOf, graphOf, runWith, useTempDirs } from '../helpers.js';

useTempDirs();

/** An interviewer that parks the run at every question (as `--park` does). */
const parkAll: Interviewer = {
  ask: async (question: Question) => {
    throw new AnswerLater(question);
  },
};

const ai = (text: string, input = 10, output = 5) => new AIMessage({ content: text, usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: input + output } });

function describeMessages(messages: BaseMessage[]): string[] {
  return messages.map((m) => `${m.getType()}: ${m.text.split('\n')[0]}`);
}

describe('chat backend over a LangChain chat model', () => {
  const pipeline = dot('  plan [prompt="Plan: $goal"]\n  build [prompt="Build it"]\n  start -> plan -> build -> exit');

  it('sends each stage a system preamble and its prompt, writes the reply, reports the model call and usage', async () => {
    const model = fakeModel().respond(ai('the plan')).respond(ai('built', 20, 7));
    const { result, events, logsRoot } = await runWith(pipeline, createChatBackend({ model }));
    expect(result.status).toBe('success');
    expect(model.callCount).toBe(2);
    expect(describeMessages(model.calls[0]?.messages ?? [])).toEqual([
      'system: You are one stage of an automated multi-stage pipeline. Do the task you are given and answer with the result itself; later stages read your answer.',
      'human: Plan: Ship the feature',
    ]);
    expect(readFileSync(join(logsRoot, 'plan', 'response.md'), 'utf8')).toBe('the plan');
    expect(readFileSync(join(logsRoot, 'build', 'response.md'), 'utf8')).toBe('built');
    expect(eventsOf(events, 'llm.response').map((e) => [e.nodeId, e.usage?.totalTokens])).toEqual([['plan', 15], ['build', 27]]);
    expect(result.usage).toEqual({ inputTokens: 30, outputTokens: 12, totalTokens: 42 });
    expect(eventsOf(events, 'llm.delta').map((e) => e.text).join('|')).toBe('the plan|built');
  });

  it('gives a compact preamble by default: the goal, completed stages with outcomes, context values; written to preamble.md', async () => {
    const model = fakeModel().respond(ai('P')).respond(ai('B'));
    const { logsRoot } = await runWith(pipeline, createChatBackend({ model }), { initialContext: { ticket: 'ABC-1' } });
    const system = model.calls[1]?.messages[0]?.text ?? '';
    expect(system).toContain('stage "build"');
    expect(system).toContain('Pipeline goal: Ship the feature');
    expect(system).toContain('- plan: success');
    expect(system).toContain('- ticket = ABC-1');
    expect(system).toContain('- last_response = P');
    expect(readFileSync(join(logsRoot, 'build', 'preamble.md'), 'utf8')).toContain('- plan: success');
  });

  it('truncate carries only the goal and the run id', async () => {
    const model = fakeModel().respond(ai('P')).respond(ai('B'));
    await runWith(dot('  plan [prompt="p"]\n  build [prompt="b", fidelity="truncate"]\n  start -> plan -> build -> exit'), createChatBackend({ model }), { initialContext: { ticket: 'ABC-1' } });
    const system = model.calls[1]?.messages[0]?.text ?? '';
    expect(system).toContain('Pipeline goal: Ship the feature');
    expect(system).not.toContain('plan');
    expect(system).not.toContain('ABC-1');
  });

  it('full fidelity continues the previous stage\'s session (same thread), other threads start fresh', async () => {
    const source = dot(
      [
        '  a [prompt="first"]',
        '  b [prompt="second", fidelity="full"]',
        '  c [prompt="third", fidelity="full", thread_id="other"]',
        '  start -> a -> b -> c -> exit',
      ].join('\n'),
    );
    const model = fakeModel().respond(ai('one')).respond(ai('two')).respond(ai('three'));
    await runWith(source, createChatBackend({ model }));
    // b's thread falls back to the previous node (a): it continues a's session.
    expect(describeMessages(model.calls[1]?.messages ?? []).slice(1)).toEqual(['human: first', 'ai: one', 'human: second']);
    // c names another thread: a fresh session with a preamble.
    expect(describeMessages(model.calls[2]?.messages ?? []).map((l) => l.split(':')[0])).toEqual(['system', 'human']);
  });

  it('after a resume, full degrades to a summary:high preamble for the stage whose session was lost', async () => {
    const source = dot('  a [prompt="first"]\n  gate [shape=hexagon, label="Go on?"]\n  b [prompt="second", fidelity="full"]\n  start -> a -> gate\n  gate -> b [label="[Y] Yes"]\n  b -> exit');
    const first = fakeModel().respond(ai('one'));
    const parked = await runWith(source, createChatBackend({ model: first }), { interviewer: parkAll });
    expect(parked.result.status).toBe('parked');
    const second = fakeModel().respond(ai('two'));
    const resumed = await resumePipeline(parked.logsRoot, {
      registry: createDefaultRegistry({ backend: createChatBackend({ model: second }), interviewer: new QueueInterviewer([{ value: 'Y' }]) }),
      graph: graphOf(source),
    });
    expect(resumed.status).toBe('success');
    const messages = second.calls[0]?.messages ?? [];
    expect(messages.map((m) => m.getType())).toEqual(['system', 'human']);
    expect(messages[0]?.text).toContain('Earlier responses');
    expect(messages[0]?.text).toContain('- a: one');
    expect(existsSync(join(parked.logsRoot, 'b', 'preamble.md'))).toBe(true);
  });
});

describe('chat backend conversations (agent.mode="interactive")', () => {
  const source = dot('  talk [prompt="Let us design it", agent.mode="interactive"]\n  start -> talk -> exit');

  it('sends the whole history each turn and ends on /done', async () => {
    const model = fakeModel().respond(ai('What matters most?')).respond(ai('Then speed it is.'));
    const { result, logsRoot } = await runWith(source, createChatBackend({ model }), { interviewer: new QueueInterviewer([{ value: 'speed', text: 'speed' }, { value: '/done', text: '/done' }]) });
    expect(result.status).toBe('success');
    expect(model.callCount).toBe(2);
    expect(describeMessages(model.calls[1]?.messages ?? []).slice(1)).toEqual(['human: Let us design it', 'ai: What matters most?', 'human: speed']);
    expect(readFileSync(join(logsRoot, 'talk', 'response.md'), 'utf8')).toBe('Then speed it is.');
  });

  it('restores a saved conversation without calling the model for past turns', async () => {
    // Turn 1 is answered, then the run parks at turn 2.
    let asked = 0;
    const firstModel = fakeModel().respond(ai('Q1')).respond(ai('Q2'));
    const parked = await runWith(source, createChatBackend({ model: firstModel }), {
      interviewer: { ask: async (q) => (++asked === 1 ? { value: 'A1', text: 'A1' } : parkAll.ask(q)) },
    });
    expect(parked.result.status).toBe('parked');
    expect(firstModel.callCount).toBe(2);
    const secondModel = fakeModel().respond(ai('Q3'));
    const resumed = await resumePipeline(parked.logsRoot, {
      registry: createDefaultRegistry({ backend: createChatBackend({ model: secondModel }), interviewer: new QueueInterviewer([{ value: 'A2', text: 'A2' }, { value: '/approve', text: '/approve' }]) }),
      graph: graphOf(source),
    });
    expect(resumed.status).toBe('success');
    // One call for the new turn only, carrying the restored history.
    expect(secondModel.callCount).toBe(1);
    expect(describeMessages(secondModel.calls[0]?.messages ?? []).slice(1)).toEqual(['human: Let us design it', 'ai: Q1', 'human: A1', 'ai: Q2', 'human: A2']);
  });
});
