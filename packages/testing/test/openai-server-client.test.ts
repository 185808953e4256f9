import { AIMessage, AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  dropConnection,
  guardNetwork,
  httpError,
  reply,
  startScriptedOpenAIServer,
  toolCall,
  toolCalls,
  type NetworkGuard,
  type ScriptedOpenAIServer,
} from '../src/index.js';

/** The real LangChain `ChatOpenAI` client against the scripted server. */

/** The guard refuses fetches to hosts other than 127.0.0.1 and lists them. */
let guard: NetworkGuard;

beforeAll(() => {
  guard = guardNetwork();
});

afterAll(() => {
  guard.restore();
});

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});

afterEach(async () => {
  await server.close();
  expect(guard.refused).toEqual([]);
});

function model(options: { streaming?: boolean; apiKey?: string } = {}): ChatOpenAI {
  const { streaming = false, apiKey = 'test-key' } = options;
  return new ChatOpenAI({
    model: 'scripted-model',
    apiKey,
    maxRetries: 0,
    configuration: { baseURL: server.url },
    ...(streaming ? { streaming: true, streamUsage: true } : {}),
  });
}

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

function merge(chunks: AIMessageChunk[]): AIMessageChunk {
  const [first, ...rest] = chunks;
  if (!first) throw new Error('no chunks');
  return rest.reduce((sum, chunk) => sum.concat(chunk), first);
}

/** The rejection of a promise, which must reject. */
async function rejection(promise: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  const result = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(result).toBeInstanceOf(Error);
  return result as Error & Record<string, unknown>;
}

const weather = tool(async ({ city }) => `Sunny in ${String(city)}`, {
  name: 'get_weather',
  description: 'Current weather of a city',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
});

describe('replies', () => {
  it('invoke returns the text and the scripted usage', async () => {
    server.enqueue(reply('Hello from the script', { usage: { promptTokens: 12, completionTokens: 4 } }));
    const answer = await model().invoke([new SystemMessage('Be nice.'), new HumanMessage('Hi there')]);
    expect(answer.content).toBe('Hello from the script');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 4, total_tokens: 16 });
    expect(answer.response_metadata).toMatchObject({ finish_reason: 'stop', model_name: 'scripted-model' });
    const [request] = server.completions;
    expect(request).toMatchObject({
      model: 'scripted-model',
      stream: false,
      messages: [
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'Hi there' },
      ],
      lastUserText: 'Hi there',
      outcome: 'reply',
    });
    expect(request?.headers['authorization']).toBe('Bearer test-key');
  });

  it('stream delivers the reply in several chunks and the usage at the end', async () => {
    server.enqueue(reply('The quick brown fox jumps', { usage: { promptTokens: 9, completionTokens: 5 } }));
    const chunks = await collect(await model({ streaming: true }).stream([new HumanMessage('Tell me')]));
    const texts = chunks.map((chunk) => chunk.content).filter((text) => text !== '');
    expect(texts).toEqual(['The', ' quick', ' brown', ' fox', ' jumps']);
    const whole = merge(chunks);
    expect(whole.content).toBe('The quick brown fox jumps');
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 9, output_tokens: 5, total_tokens: 14 });
    expect(whole.response_metadata).toMatchObject({ finish_reason: 'stop' });
    expect(server.completions[0]).toMatchObject({ stream: true, body: { stream_options: { include_usage: true } } });
  });

  it('reports deterministic usage when the step gives none', async () => {
    server.enqueue(reply('two words'));
    const answer = await model().invoke([new HumanMessage('count these four words')]);
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 4, output_tokens: 2, total_tokens: 6 });
  });
});

describe('tool calls', () => {
  it('come back as tool_calls, and the tool result is sent back', async () => {
    server.enqueue(toolCall('get_weather', { city: 'Paris' }, { id: 'call_w1' }), reply('It is sunny in Paris.'));
    const bound = model().bindTools([weather]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await bound.invoke([question]);
    expect(first.tool_calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' }, id: 'call_w1', type: 'tool_call' }]);
    expect(first.response_metadata).toMatchObject({ finish_reason: 'tool_calls' });

    const call = first.tool_calls?.[0];
    const result = new ToolMessage({ content: `Sunny in ${String(call?.args['city'])}`, tool_call_id: call?.id ?? '' });
    const second = await bound.invoke([question, first, result]);
    expect(second.content).toBe('It is sunny in Paris.');

    const [toolRequest, followUp] = server.completions;
    expect(toolRequest?.tools).toEqual([
      {
        type: 'function',
        function: expect.objectContaining({
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: expect.objectContaining({ properties: { city: { type: 'string' } } }),
        }),
      },
    ]);
    expect(followUp?.messages?.map((message) => message.role)).toEqual(['user', 'assistant', 'tool']);
    expect(followUp?.messages?.[1]?.tool_calls).toEqual([
      { id: 'call_w1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    ]);
    expect(followUp?.messages?.[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_w1', content: 'Sunny in Paris' });
    expect(followUp?.lastUserText).toBe('Weather in Paris?');
  });

  it('stream as tool call chunks that merge into tool_calls', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
        { usage: { promptTokens: 3, completionTokens: 8 } },
      ),
    );
    const chunks = await collect(await model({ streaming: true }).bindTools([weather]).stream([new HumanMessage('Two cities?')]));
    expect(chunks.length).toBeGreaterThan(3);
    const whole = merge(chunks);
    expect(whole.tool_calls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' }, id: 'call_1_1', type: 'tool_call' },
      { name: 'get_weather', args: { city: 'Oslo' }, id: 'call_1_2', type: 'tool_call' },
    ]);
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 3, output_tokens: 8, total_tokens: 11 });
  });

  it('accept a hand-written tool call history in the request log', async () => {
    server.enqueue(reply('done'));
    const history = [
      new HumanMessage('Weather?'),
      new AIMessage({ content: '', tool_calls: [{ name: 'get_weather', args: { city: 'Rome' }, id: 'call_x', type: 'tool_call' }] }),
      new ToolMessage({ content: 'Rainy', tool_call_id: 'call_x' }),
    ];
    await model().invoke(history);
    expect(server.completions[0]?.messages?.[2]).toEqual({ role: 'tool', content: 'Rainy', tool_call_id: 'call_x' });
  });
});

describe('failures reach the client', () => {
  it('429 rejects with status 429 and the Retry-After header', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 7 }));
    const error = await rejection(model().invoke('hi'));
    expect(error.constructor.name).toBe('RateLimitError');
    expect(error.status).toBe(429);
    // The openai SDK keeps the response headers as a fetch Headers object.
    expect((error.headers as Headers).get('retry-after')).toBe('7');
    expect(error.lc_error_code).toBe('MODEL_RATE_LIMIT');
    expect(error.message).toContain('429 Rate limit reached for requests');
    expect(error).toMatchObject({ type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' });
  });

  it('500 rejects with status 500', async () => {
    server.enqueue(httpError(500));
    const error = await rejection(model({ streaming: true }).stream('hi'));
    expect(error.constructor.name).toBe('InternalServerError');
    expect(error.status).toBe(500);
    expect(error.message).toContain('The server had an error while processing your request.');
  });

  it('a wrong API key rejects with 401', async () => {
    server.enqueue(reply('not for you'));
    const error = await rejection(model({ apiKey: 'wrong-key-0000' }).invoke('hi'));
    expect(error.constructor.name).toBe('AuthenticationError');
    expect(error.status).toBe(401);
    expect(error.code).toBe('invalid_api_key');
    expect(error.lc_error_code).toBe('MODEL_AUTHENTICATION');
    expect(server.completions[0]).toMatchObject({ outcome: 'error 401', headers: { authorization: 'Bearer wrong-key-0000' } });
    expect(server.remaining).toBe(1);
  });

  it('context_length_exceeded becomes a LangChain ContextOverflowError', async () => {
    server.enqueue(httpError(400, { code: 'context_length_exceeded', message: "This model's maximum context length is 10 tokens." }));
    const error = await rejection(model().invoke('a long prompt'));
    expect(error.name).toBe('ContextOverflowError');
  });

  it('a connection dropped before the response rejects with a connection error', async () => {
    server.enqueue(dropConnection('before-response'));
    const error = await rejection(model().invoke('hi'));
    expect(error.constructor.name).toBe('APIConnectionError');
    expect(error.status).toBeUndefined();
    expect(error.message).toBe('Connection error.');
    expect(server.completions[0]?.outcome).toBe('dropped before-response');
  });

  it('a connection dropped mid-stream rejects after the first chunk', async () => {
    server.enqueue(dropConnection('mid-stream', { partialText: 'Partial ans' }));
    const received: string[] = [];
    const stream = await model({ streaming: true }).stream('hi');
    const error = await rejection(
      (async () => {
        for await (const chunk of stream) received.push(String(chunk.content));
      })(),
    );
    expect(received).toEqual(['Partial ans']);
    expect(error.name).toBe('TypeError');
    expect(error.message).toBe('terminated');
    expect(server.completions[0]?.outcome).toBe('dropped mid-stream');
  });

  it('an aborted invoke stops the scripted delay', async () => {
    server.enqueue(reply('too slow', { delayMs: 10_000 }));
    const controller = new AbortController();
    const pending = model().invoke('hi', { signal: controller.signal });
    await vi.waitFor(() => expect(server.completions[0]?.step).toBeDefined());
    controller.abort();
    await rejection(pending);
    await vi.waitFor(() => expect(server.completions[0]?.outcome).toBe('aborted'));
  });
});
