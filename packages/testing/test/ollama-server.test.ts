import { AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOllama } from '@langchain/ollama';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  dropConnection,
  guardNetwork,
  httpError,
  reply,
  scriptConversation,
  startScriptedOllamaServer,
  toolCall,
  toolCalls,
  type NetworkGuard,
  type Responder,
  type ScriptedOllamaServer,
} from '../src/index.js';

/** The scripted Ollama server: its protocol seen with plain `fetch`, then through LangChain's `ChatOllama`. */

let guard: NetworkGuard;

beforeAll(() => {
  guard = guardNetwork();
});

afterAll(() => {
  guard.restore();
});

let server: ScriptedOllamaServer;

beforeEach(async () => {
  server = await startScriptedOllamaServer();
});

afterEach(async () => {
  await server.close();
  expect(guard.refused).toEqual([]);
});

function chat(body: Record<string, unknown>, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...init.headers },
    body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'Hello there' }], ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

/** The NDJSON lines of a streamed answer, parsed; also checks every line ends with a newline. */
async function lines(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  expect(text.endsWith('\n')).toBe(true);
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('non-streaming chat', () => {
  it('answers a reply as one object with the usage', async () => {
    server.enqueue(reply('Hi, how can I help?', { usage: { promptTokens: 12, completionTokens: 5 } }));
    const response = await chat({ stream: false });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'llama3.2',
      message: { role: 'assistant', content: 'Hi, how can I help?' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 12,
      eval_count: 5,
    });
    expect(Number.isNaN(Date.parse(String(body['created_at'])))).toBe(false);
    for (const field of ['total_duration', 'load_duration', 'prompt_eval_duration', 'eval_duration']) expect(typeof body[field]).toBe('number');
    expect(body['message']).not.toHaveProperty('tool_calls');
  });

  it('answers tool calls with object arguments and no ids; model and done_reason from the step', async () => {
    server.enqueue(
      toolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'raw', arguments: '{"a": 1}' }, { name: 'bad', arguments: '{oops' }], { text: 'Checking.' }),
      reply('cut', { finishReason: 'length', model: 'other:7b' }),
    );
    const body = (await (await chat({ stream: false })).json()) as Record<string, unknown>;
    expect(body['message']).toEqual({
      role: 'assistant',
      content: 'Checking.',
      tool_calls: [
        { function: { name: 'get_weather', arguments: { city: 'Paris' } } },
        { function: { name: 'raw', arguments: { a: 1 } } },
        { function: { name: 'bad', arguments: '{oops' } },
      ],
    });
    expect(body['done_reason']).toBe('stop');
    expect(await (await chat({ stream: false })).json()).toMatchObject({ model: 'other:7b', done_reason: 'length', message: { content: 'cut' } });
  });

  it('counts usage deterministically: words of every message, system and tool results included', async () => {
    server.enqueue(toolCall('lookup', { q: 'a b' }));
    const body = (await (
      await chat({
        stream: false,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Find two words' },
          { role: 'assistant', content: '', tool_calls: [{ function: { name: 'lookup', arguments: {} } }] },
          { role: 'tool', content: 'three more words' },
        ],
      })
    ).json()) as Record<string, unknown>;
    // 2 + 3 + 0 + 3 = 8 prompt words; the argument JSON {"q":"a b"} is 2 words.
    expect(body).toMatchObject({ prompt_eval_count: 8, eval_count: 2 });
  });
});

describe('streaming chat (NDJSON)', () => {
  it('streams by default: one line per word, then a done line with the usage', async () => {
    server.enqueue(reply('One two three', { usage: { promptTokens: 7, completionTokens: 3 } }));
    const response = await chat({});
    expect(response.headers.get('content-type')).toBe('application/x-ndjson');
    const parsed = await lines(response);
    expect(parsed.map((line) => (line['message'] as { content: string }).content)).toEqual(['One', ' two', ' three', '']);
    expect(parsed.slice(0, 3).every((line) => line['done'] === false && line['model'] === 'llama3.2')).toBe(true);
    expect(parsed[0]).not.toHaveProperty('prompt_eval_count');
    expect(parsed.at(-1)).toMatchObject({ done: true, done_reason: 'stop', prompt_eval_count: 7, eval_count: 3, message: { role: 'assistant', content: '' } });
    expect(server.chats[0]?.stream).toBe(true);
  });

  it('splits into the requested number of chunks; an empty reply is the done line alone', async () => {
    server.enqueue(reply('abcdef', { chunks: 3 }), reply(''));
    expect((await lines(await chat({ stream: true }))).map((line) => (line['message'] as { content: string }).content)).toEqual(['ab', 'cd', 'ef', '']);
    const empty = await lines(await chat({ stream: true }));
    expect(empty).toHaveLength(1);
    expect(empty[0]).toMatchObject({ done: true });
  });

  it('sends all tool calls in one line of their own after the text, before the done line', async () => {
    server.enqueue(toolCalls([{ name: 'a', arguments: { x: 1 } }, { name: 'b', arguments: {} }], { text: 'Let me look' }));
    const parsed = await lines(await chat({}));
    expect(parsed.map((line) => line['message'])).toEqual([
      { role: 'assistant', content: 'Let' },
      { role: 'assistant', content: ' me' },
      { role: 'assistant', content: ' look' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'a', arguments: { x: 1 } } }, { function: { name: 'b', arguments: {} } }] },
      { role: 'assistant', content: '' },
    ]);
    expect(parsed.at(-1)).toMatchObject({ done: true, done_reason: 'stop' });
  });

  it('stops quietly when the client cancels between chunks', async () => {
    server.enqueue(reply('a b c d e f', { chunkDelayMs: 200 }));
    const controller = new AbortController();
    const response = await chat({}, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect.poll(() => server.chats[0]?.outcome).toBe('aborted');
  });
});

describe('errors and failures', () => {
  it('answers an error step with the status, retry-after and an Ollama-shaped body', async () => {
    server.enqueue(
      httpError(404),
      httpError(503, { retryAfterSeconds: 2 }),
      httpError(500, { message: 'llama runner process has terminated' }),
      httpError(400, { code: 'context_length_exceeded' }),
    );
    const notFound = await chat({ model: 'mistral' });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('content-type')).toBe('application/json');
    expect(await notFound.json()).toEqual({ error: 'model "mistral" not found, try pulling it first' });
    const busy = await chat({});
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(await busy.json()).toEqual({ error: 'server busy, please try again.  maximum pending requests exceeded' });
    expect(await (await chat({})).json()).toEqual({ error: 'llama runner process has terminated' });
    expect(await (await chat({})).json()).toEqual({ error: 'the input length exceeds the context length' });
    expect(server.chats.map((record) => record.outcome)).toEqual(['error 404', 'error 503', 'error 500', 'error 400']);
  });

  it('answers 500 with an explanation when nothing is scripted', async () => {
    const response = await chat({ messages: [{ role: 'user', content: 'Anyone?' }] });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'scripted server: no response scripted for request #1 (last user message: "Anyone?")' });
    expect(server.chats[0]?.outcome).toBe('no script');
  });

  it('answers 400 to bad JSON or no model, 404 to unknown routes, using no step', async () => {
    server.enqueue(reply('kept'));
    const bad = await fetch(`${server.url}/api/chat`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: 'invalid JSON in the request body' });
    expect(await (await chat({ model: '' })).json()).toEqual({ error: 'model is required' });
    const unknown = await fetch(`${server.url}/api/generate`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toContain('POST /api/generate');
    expect(server.remaining).toBe(1);
  });

  it('drops the connection before responding', async () => {
    server.enqueue(dropConnection());
    await expect(chat({})).rejects.toThrow('fetch failed');
    expect(server.chats[0]?.outcome).toBe('dropped before-response');
  });

  it('drops the connection after a first line with the partial text', async () => {
    server.enqueue(dropConnection('mid-stream', { partialText: 'Hal' }), dropConnection('mid-stream'));
    const response = await chat({});
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow('terminated');
    await expect(chat({ stream: false })).rejects.toThrow('fetch failed');
    expect(server.chats.map((record) => record.outcome)).toEqual(['dropped mid-stream', 'dropped before-response']);
  });
});

describe('bearer token, models and version', () => {
  it('checks Authorization when bearer is set, without using a step', async () => {
    await server.close();
    server = await startScriptedOllamaServer({ bearer: 'proxy-token', script: [reply('ok')] });
    const missing = await chat({});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: 'unauthorized: missing Authorization header' });
    expect(await (await chat({}, { headers: { authorization: 'Bearer nope' } })).json()).toEqual({ error: 'unauthorized: invalid bearer token' });
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(401);
    expect(server.remaining).toBe(1);
    expect((await chat({ stream: false }, { headers: { authorization: 'Bearer proxy-token' } })).status).toBe(200);
  });

  it('lists models with their tags, and answers the version', async () => {
    const tags = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: Record<string, unknown>[] };
    expect(tags.models).toHaveLength(1);
    expect(tags.models[0]).toMatchObject({ name: 'scripted-model:latest', model: 'scripted-model:latest', details: { format: 'gguf' } });
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: '0.12.6' });
    await server.close();
    server = await startScriptedOllamaServer({ models: ['llama3.2', 'qwen3:8b'], version: '0.13.0' });
    const listed = (await (await fetch(`${server.url}/api/tags`)).json()) as { models: { name: string }[] };
    expect(listed.models.map((model) => model.name)).toEqual(['llama3.2:latest', 'qwen3:8b']);
    expect(await (await fetch(`${server.url}/api/version`)).json()).toEqual({ version: '0.13.0' });
    expect(server.requests.map((record) => record.outcome)).toEqual(['models', 'models']);
  });
});

describe('script, responder and log', () => {
  it('records the request: model, system, messages, transcript, tools, options, headers', async () => {
    server.enqueue(reply('ok'));
    const tools = [{ type: 'function', function: { name: 'get_weather', description: 'Weather', parameters: { type: 'object' } } }];
    await chat(
      {
        stream: false,
        think: false,
        options: { num_predict: 256, temperature: 0 },
        tools,
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'system', content: 'Answer in English.' },
          { role: 'user', content: 'Weather in Paris?' },
          { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Paris' } } }] },
          { role: 'tool', content: 'Sunny', tool_name: 'get_weather' },
          { role: 'user', content: '', images: ['aGk='] },
        ],
      },
      { headers: { 'x-trace': 'abc' } },
    );
    const record = server.chats[0]!;
    expect(record).toMatchObject({
      method: 'POST',
      path: '/api/chat',
      model: 'llama3.2',
      stream: false,
      system: 'Be brief.\nAnswer in English.',
      tools,
      options: { num_predict: 256, temperature: 0 },
      think: false,
      lastUserText: 'Weather in Paris?',
      outcome: 'reply',
      step: { kind: 'reply', text: 'ok' },
    });
    expect(record.headers['x-trace']).toBe('abc');
    expect(record.messages).toHaveLength(6);
    expect(record.transcript).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'system', text: 'Answer in English.' },
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'assistant', text: '', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, id: 'c1' }] },
      { role: 'tool', text: 'Sunny', toolName: 'get_weather' },
      { role: 'user', text: '', images: 1 },
    ]);
  });

  it('uses queued steps first, then the responder; a Responder written for the OpenAI server fits', async () => {
    const echo: Responder = (request) => reply(`echo: ${request.lastUserText ?? ''}`);
    server.enqueue(reply('first')).respondWith(echo);
    expect(((await (await chat({ stream: false })).json()) as { message: { content: string } }).message.content).toBe('first');
    expect(((await (await chat({ stream: false })).json()) as { message: { content: string } }).message.content).toBe('echo: Hello there');
  });

  it('plays a scriptConversation, and answers 500 when the responder throws', async () => {
    const conversation = scriptConversation([{ expect: /plan/, reply: 'A plan.' }]);
    server.respondWith(conversation);
    const ok = (await (await chat({ stream: false, messages: [{ role: 'user', content: 'Write a plan' }] })).json()) as { message: { content: string } };
    expect(ok.message.content).toBe('A plan.');
    expect(conversation.turnsLeft).toBe(0);
    server.respondWith(() => {
      throw new Error('boom');
    });
    const failed = await chat({});
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'scripted server: the responder threw for request #2: boom' });
    expect(server.chats[1]?.outcome).toBe('responder error');
  });

  it('takes the script and responder from the options; reset clears them and the log', async () => {
    await server.close();
    server = await startScriptedOllamaServer({ script: [reply('a')], responder: () => reply('b') });
    expect(server.remaining).toBe(1);
    await chat({ stream: false });
    server.reset();
    expect([server.remaining, server.requests.length]).toEqual([0, 0]);
    expect((await chat({})).status).toBe(500);
    expect(server.requests[0]?.index).toBe(1);
  });

  it('waits delayMs, and closes promptly with a request in flight', async () => {
    server.enqueue(reply('late', { delayMs: 10_000 }));
    const pending = chat({}).catch((error: unknown) => error);
    await expect.poll(() => server.chats[0]?.step).toMatchObject({ kind: 'reply' });
    expect(server.chats[0]?.outcome).toBe('pending');
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
    expect(server.chats[0]?.outcome).toBe('server closed');
  });
});

describe('through ChatOllama', () => {
  function model(options: { headers?: Record<string, string> } = {}): ChatOllama {
    return new ChatOllama({ model: 'scripted-model', baseUrl: server.url, ...options });
  }

  const weather = tool(async ({ city }) => `Sunny in ${String(city)}`, {
    name: 'get_weather',
    description: 'Current weather of a city',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
  });

  it('runs the example of docs/testing-pipelines.md', async () => {
    server.enqueue(httpError(404), reply('Version 2.0 is out.'));
    const chatModel = new ChatOllama({ model: 'scripted-model', baseUrl: server.url });
    await expect(chatModel.invoke('Write a release note')).rejects.toMatchObject({
      name: 'ResponseError',
      status_code: 404,
      message: 'model "scripted-model" not found, try pulling it first',
    });
    expect((await chatModel.invoke('Write a release note')).content).toBe('Version 2.0 is out.');
    expect(server.chats.map((r) => r.outcome)).toEqual(['error 404', 'reply']);
  });

  it('invoke returns the text and the scripted usage; the request streams, with the options', async () => {
    server.enqueue(reply('Hello from Ollama', { usage: { promptTokens: 11, completionTokens: 4 } }));
    const chatModel = new ChatOllama({ model: 'scripted-model', baseUrl: server.url, numPredict: 64, temperature: 0 });
    const answer = await chatModel.invoke([new SystemMessage('Be brief.'), new HumanMessage('Say hello')]);
    expect(answer.content).toBe('Hello from Ollama');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 4, total_tokens: 15 });
    expect(answer.response_metadata).toMatchObject({ model: 'scripted-model', done_reason: 'stop', model_provider: 'ollama' });
    const record = server.chats[0]!;
    expect(record).toMatchObject({ stream: true, model: 'scripted-model', system: 'Be brief.', lastUserText: 'Say hello', options: { num_predict: 64, temperature: 0 } });
    expect(record.headers['user-agent']).toMatch(/^ollama-js\//);
  });

  it('stream delivers the reply in several chunks, and the usage from prompt_eval_count / eval_count', async () => {
    server.enqueue(reply('one two three four'));
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model().stream('Count to four, please')) chunks.push(chunk);
    expect(chunks.filter((chunk) => chunk.content !== '').map((chunk) => chunk.content)).toEqual(['one', ' two', ' three', ' four']);
    const usage = chunks.map((chunk) => chunk.usage_metadata).filter((u) => u !== undefined && u.input_tokens + u.output_tokens > 0);
    // deterministic counts: 4 words in, 4 words out
    expect(usage.at(-1)).toMatchObject({ input_tokens: 4, output_tokens: 4, total_tokens: 8 });
  });

  it('bindTools: a tool call comes back in tool_calls, and the tool result goes back', async () => {
    server.enqueue(toolCall('get_weather', { city: 'Paris' }, { text: 'Checking.' }), reply('It is sunny in Paris.'));
    const bound = model().bindTools([weather]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await bound.invoke([question]);
    expect(first.content).toBe('Checking.');
    expect(first.tool_calls).toHaveLength(1);
    expect(first.tool_calls?.[0]).toMatchObject({ name: 'get_weather', args: { city: 'Paris' }, type: 'tool_call' });
    expect(server.chats[0]?.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        },
      },
    ]);
    const call = first.tool_calls![0]!;
    const result = new ToolMessage({ content: `Sunny in ${String(call.args['city'])}`, tool_call_id: call.id! });
    const second = await bound.invoke([question, first, result]);
    expect(second.content).toBe('It is sunny in Paris.');
    const transcript = server.chats[1]?.transcript;
    expect(transcript).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'assistant', text: 'Checking.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' }, id: call.id }] },
      { role: 'tool', text: 'Sunny in Paris' },
    ]);
    expect(server.chats[1]?.lastUserText).toBe('Weather in Paris?');
  });

  it('several tool calls in one step come back as separate tool_calls', async () => {
    server.enqueue(toolCalls([{ name: 'get_weather', arguments: { city: 'Paris' } }, { name: 'get_weather', arguments: { city: 'Rome' } }]));
    const answer = await model().bindTools([weather]).invoke('Paris and Rome?');
    expect(answer.tool_calls?.map((call) => call.args)).toEqual([{ city: 'Paris' }, { city: 'Rome' }]);
  });

  it('an HTTP error rejects with a ResponseError: status_code and the message, no status, no headers', async () => {
    server.enqueue(httpError(503, { retryAfterSeconds: 3 }));
    const error: unknown = await model()
      .invoke('Hi')
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ResponseError',
      status_code: 503,
      error: 'server busy, please try again.  maximum pending requests exceeded',
      message: 'server busy, please try again.  maximum pending requests exceeded',
    });
    expect(error).not.toHaveProperty('status');
    expect(error).not.toHaveProperty('headers');
    expect(server.chats[0]?.outcome).toBe('error 503');
  });

  it('the bearer option of the server is met with the headers option of ChatOllama', async () => {
    await server.close();
    server = await startScriptedOllamaServer({ bearer: 'proxy-token', script: [reply('ok')] });
    await expect(model().invoke('Hi')).rejects.toMatchObject({ status_code: 401, message: 'unauthorized: missing Authorization header' });
    expect((await model({ headers: { Authorization: 'Bearer proxy-token' } }).invoke('Hi')).content).toBe('ok');
  });

  it('a dropped connection rejects: before the response, and mid-stream after the partial text', async () => {
    server.enqueue(dropConnection(), dropConnection('mid-stream', { partialText: 'Hal' }));
    await expect(model().invoke('Hi')).rejects.toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    const pieces: string[] = [];
    const streamed = (async () => {
      for await (const chunk of await model().stream('Hi')) pieces.push(String(chunk.content));
    })();
    await expect(streamed).rejects.toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(pieces).toEqual(['Hal']);
    expect(server.chats.map((record) => record.outcome)).toEqual(['dropped before-response', 'dropped mid-stream']);
  });
});
