import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpError, scriptConversation, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '../src/index.js';

/** scriptConversation, driven by the real client. */

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

function model(): ChatOpenAI {
  return new ChatOpenAI({ model: 'scripted-model', apiKey: 'test-key', maxRetries: 0, configuration: { baseURL: server.url } });
}

async function ask(text: string): Promise<unknown> {
  return (await model().invoke([new HumanMessage(text)])).content;
}

describe('scriptConversation', () => {
  it('answers turns in order when the last user message matches', async () => {
    const conversation = scriptConversation([
      { expect: 'Write a plan', reply: '1. Parse 2. Run' },
      { expect: /^review/i, reply: 'Looks good.' },
      { expect: (text) => text.endsWith('?'), reply: 'Yes.' },
      { reply: 'Anything goes.' },
    ]);
    server.respondWith(conversation);
    expect(conversation.turnsLeft).toBe(4);
    expect(await ask('Goal: ship it. Write a plan for the release.')).toBe('1. Parse 2. Run');
    expect(await ask('Review the plan')).toBe('Looks good.');
    expect(await ask('Done?')).toBe('Yes.');
    expect(await ask('whatever')).toBe('Anything goes.');
    expect(conversation.turnsUsed).toBe(4);
    expect(conversation.turnsLeft).toBe(0);
  });

  it('fails a mismatched turn with what was expected and received, without using it', async () => {
    const conversation = scriptConversation([{ expect: 'Write a plan', reply: 'plan' }]);
    server.respondWith(conversation);
    const error = await model()
      .invoke([new HumanMessage('Write a poem')])
      .then(
        () => undefined,
        (rejection: unknown) => rejection as Error & { status?: number },
      );
    expect(error?.status).toBe(500);
    expect(error?.message).toContain(
      'scripted conversation: turn 1 of 1 expected the last user message to contain "Write a plan", but it was "Write a poem" (request #1)',
    );
    expect(conversation.turnsUsed).toBe(0);
    expect(await ask('Write a plan')).toBe('plan');
  });

  it('describes RegExp and predicate expectations', async () => {
    server.respondWith(scriptConversation([{ expect: /^yes$/, reply: 'a' }]));
    await expect(ask('no')).rejects.toThrow('expected the last user message to match /^yes$/, but it was "no"');
    server.respondWith(scriptConversation([{ expect: function isQuestion(text) { return text.endsWith('?'); }, reply: 'a' }]));
    await expect(ask('statement')).rejects.toThrow('expected the last user message to satisfy isQuestion(), but it was "statement"');
  });

  it('fails a request after the last turn', async () => {
    server.respondWith(scriptConversation([{ reply: 'only one' }]));
    expect(await ask('first')).toBe('only one');
    await expect(ask('second')).rejects.toThrow('scripted conversation: all 1 turns are used, but request #2 arrived (last user message: "second")');
  });

  it('lets queued steps cut in and turns answer with any step', async () => {
    const conversation = scriptConversation([
      { expect: 'weather', reply: toolCall('get_weather', { city: 'Lima' }) },
      { expect: 'again', reply: 'Cloudy.' },
    ]);
    server.respondWith(conversation);
    const first = await model().invoke([new HumanMessage('weather in Lima')]);
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Lima' } });
    server.enqueue(httpError(429));
    await expect(ask('again')).rejects.toMatchObject({ status: 429 });
    expect(await ask('again')).toBe('Cloudy.');
    expect(server.completions.map((request) => request.outcome)).toEqual(['tool_calls', 'error 429', 'reply']);
  });
});
