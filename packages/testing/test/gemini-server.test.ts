import { AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  dropConnection,
  guardNetwork,
  httpError,
  reply,
  scriptConversation,
  startScriptedGeminiServer,
  toolCall,
  toolCalls,
  type NetworkGuard,
  type Responder,
  type ScriptedGeminiServer,
} from '../src/index.js';

/** The scripted Gemini API server: its protocol seen with plain `fetch`, then through LangChain's `ChatGoogleGenerativeAI`. */

/** The guard refuses fetches to hosts other than 127.0.0.1 and lists them. */
let guard: NetworkGuard;

beforeAll(() => {
  guard = guardNetwork();
});

afterAll(() => {
  guard.restore();
});

let server: ScriptedGeminiServer;

beforeEach(async () => {
  server = await startScriptedGeminiServer();
});

afterEach(async () => {
  await server.close();
  expect(guard.refused).toEqual([]);
});

interface Part {
  text?: string;
  functionCall?: { name: string; args: unknown; id?: string };
}
interface GenerateBody {
  candidates: { content: { role: string; parts: Part[] }; finishReason?: string; index: number }[];
  usageMetadata?: { promptTokenCount: number; candidatesTokenCount: number; totalTokenCount: number };
  modelVersion: string;
  responseId: string;
}
interface ErrorBody {
  error: { code: number; message: string; status: string; details?: Record<string, unknown>[] };
}

const USER = [{ role: 'user', parts: [{ text: 'Hello there' }] }];

function post(
  body: Record<string, unknown>,
  init: { stream?: boolean; query?: string; model?: string; headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Response> {
  const task = init.stream ? 'streamGenerateContent' : 'generateContent';
  const query = init.query ?? (init.stream ? '?alt=sse' : '');
  return fetch(`${server.url}/v1beta/models/${init.model ?? 'gemini-test'}:${task}${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': 'test-key', ...init.headers },
    body: JSON.stringify({ contents: USER, ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

async function json<T = GenerateBody>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function errorOf(response: Response | Promise<Response>): Promise<ErrorBody['error']> {
  return (await json<ErrorBody>(response)).error;
}

/** The chunks of a stream, each checked to be `data: <json>\n\n` (the framing `@google/generative-ai` parses). */
async function sseChunks(response: Response): Promise<GenerateBody[]> {
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const match = /^data: (.*)$/.exec(frame);
      expect(match, frame).not.toBeNull();
      return JSON.parse(match?.[1] ?? '') as GenerateBody;
    });
}

function partsOf(body: GenerateBody): Part[] {
  return body.candidates[0]?.content.parts ?? [];
}

describe('generateContent', () => {
  it('answers a reply as a response with one candidate', async () => {
    server.enqueue(reply('Hi! How can I help?', { usage: { promptTokens: 10, completionTokens: 5 } }));
    const response = await post({});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await json(response)).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi! How can I help?' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
      modelVersion: 'gemini-test',
      responseId: 'scripted_1',
    });
  });

  it('takes the model and the finish reason from the step (OpenAI finish reasons translated)', async () => {
    server.enqueue(reply('cut', { finishReason: 'length', model: 'gemini-other' }), reply('x', { finishReason: 'RECITATION' }));
    const first = await json(post({}));
    expect(first).toMatchObject({ modelVersion: 'gemini-other', candidates: [{ finishReason: 'MAX_TOKENS' }] });
    expect((await json(post({}))).candidates[0]?.finishReason).toBe('RECITATION');
  });

  it('answers tool calls with functionCall parts, after the text when there is some', async () => {
    server.enqueue(
      toolCall('get_weather', { city: 'Paris' }),
      toolCalls(
        [
          { name: 'a', arguments: { n: 1 }, id: 'call-a' },
          { name: 'b', arguments: '{"m": 2}' },
          { name: 'c', arguments: 'not json' },
        ],
        { text: 'Let me check.' },
      ),
    );
    const single = await json(post({}));
    expect(partsOf(single)).toEqual([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }]);
    expect(single.candidates[0]?.finishReason).toBe('STOP');
    expect(partsOf(await json(post({})))).toEqual([
      { text: 'Let me check.' },
      { functionCall: { id: 'call-a', name: 'a', args: { n: 1 } } },
      { functionCall: { name: 'b', args: { m: 2 } } },
      { functionCall: { name: 'c', args: 'not json' } },
    ]);
  });

  it('counts usage deterministically when the step gives none', async () => {
    server.enqueue(reply('one two three'), toolCall('f', { city: 'New York' }));
    const body = {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'four words right here' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { result: 'sunny and warm' } } }] },
      ],
    };
    // system 2 + user 4 + function response 3
    expect((await json(post(body))).usageMetadata).toEqual({ promptTokenCount: 9, candidatesTokenCount: 3, totalTokenCount: 12 });
    // {"city":"New York"} is two words
    expect((await json(post({}))).usageMetadata).toEqual({ promptTokenCount: 2, candidatesTokenCount: 2, totalTokenCount: 4 });
  });
});

describe('streamGenerateContent', () => {
  it('streams a reply as data-only events, text word by word, usage on the last chunk', async () => {
    server.enqueue(reply('The quick brown fox', { usage: { promptTokens: 4, completionTokens: 4 } }));
    const response = await post({}, { stream: true });
    expect(response.status).toBe(200);
    const chunks = await sseChunks(response);
    expect(chunks.map((chunk) => partsOf(chunk)[0]?.text)).toEqual(['The', ' quick', ' brown', ' fox']);
    expect(chunks.slice(0, -1).every((chunk) => chunk.usageMetadata === undefined && chunk.candidates[0]?.finishReason === undefined)).toBe(true);
    expect(chunks.at(-1)).toMatchObject({
      candidates: [{ content: { role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 4, totalTokenCount: 8 },
      modelVersion: 'gemini-test',
      responseId: 'scripted_1',
    });
    expect(server.generations[0]).toMatchObject({ stream: true, sse: true, outcome: 'reply' });
  });

  it('splits into the requested number of chunks; an empty reply is one empty text part', async () => {
    server.enqueue(reply('abcdef', { chunks: 3 }), reply(''));
    expect((await sseChunks(await post({}, { stream: true }))).map((chunk) => partsOf(chunk)[0]?.text)).toEqual(['ab', 'cd', 'ef']);
    const empty = await sseChunks(await post({}, { stream: true }));
    expect(empty).toHaveLength(1);
    expect(partsOf(empty[0] as GenerateBody)).toEqual([{ text: '' }]);
  });

  it('streams function calls whole, in one chunk after the text', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
        { text: 'Checking both' },
      ),
    );
    const chunks = await sseChunks(await post({}, { stream: true }));
    expect(chunks.map(partsOf)).toEqual([
      [{ text: 'Checking' }],
      [{ text: ' both' }],
      [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }],
    ]);
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
  });

  it('answers one JSON array of the chunks without alt=sse', async () => {
    server.enqueue(reply('two words'));
    const response = await post({}, { stream: true, query: '' });
    expect(response.headers.get('content-type')).toBe('application/json');
    const chunks = await json<GenerateBody[]>(response);
    expect(chunks.map((chunk) => partsOf(chunk)[0]?.text)).toEqual(['two', ' words']);
    expect(server.generations[0]).toMatchObject({ stream: true, sse: false });
  });

  it('stops quietly when the client cancels between chunks', async () => {
    server.enqueue(reply('one two three four', { chunkDelayMs: 200 }));
    const controller = new AbortController();
    const response = await post({}, { stream: true, signal: controller.signal });
    const reader = response.body?.getReader();
    await reader?.read();
    controller.abort();
    await expect(reader?.read()).rejects.toThrow();
    await expect.poll(() => server.generations[0]?.outcome).toBe('aborted');
  });
});

describe('errors and failures', () => {
  it('answers an error step with status, retry-after and a Google-shaped body', async () => {
    server.enqueue(
      httpError(429, { retryAfterSeconds: 7 }),
      httpError(500),
      httpError(503),
      httpError(400, { code: 'context_length_exceeded' }),
      httpError(403, { message: 'nope', type: 'PERMISSION_DENIED' }),
      httpError(404),
      httpError(418),
    );
    const limited = await post({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await errorOf(limited)).toEqual({
      code: 429,
      message: 'Resource has been exhausted (e.g. check quota). Please retry in 7s.',
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
    });
    const internal = await post({});
    expect(internal.headers.get('retry-after')).toBeNull();
    expect(await errorOf(internal)).toMatchObject({ code: 500, status: 'INTERNAL' });
    expect(await errorOf(post({}))).toMatchObject({ code: 503, status: 'UNAVAILABLE', message: 'The model is overloaded. Please try again later.' });
    expect(await errorOf(post({}))).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/input token count/) });
    expect(await errorOf(post({}))).toEqual({ code: 403, status: 'PERMISSION_DENIED', message: 'nope' });
    expect(await errorOf(post({}))).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    expect(await errorOf(post({}))).toMatchObject({ code: 418, status: 'INVALID_ARGUMENT' });
    expect(server.generations.map((request) => request.outcome)).toEqual(['error 429', 'error 500', 'error 503', 'error 400', 'error 403', 'error 404', 'error 418']);
  });

  it('answers 500 with an explanation when nothing is scripted', async () => {
    const response = await post({});
    expect(response.status).toBe(500);
    expect(await errorOf(response)).toMatchObject({
      status: 'INTERNAL',
      message: 'scripted server: no response scripted for request #1 (last user message: "Hello there")',
    });
    expect(server.generations[0]?.outcome).toBe('no script');
  });

  it('answers 400 to bad JSON and 404 to unknown routes, using no step', async () => {
    server.enqueue(reply('unused'));
    const bad = await fetch(`${server.url}/v1beta/models/m:generateContent`, { method: 'POST', body: '{nope' });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({ status: 'INVALID_ARGUMENT' });
    const unknown = await fetch(`${server.url}/v1beta/models/m:embedContent`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toMatchObject({ status: 'NOT_FOUND', message: expect.stringContaining('Unknown request URL') });
    expect((await fetch(`${server.url}/v1beta/models/m:generateContent`)).status).toBe(404);
    expect(server.remaining).toBe(1);
  });

  it('drops the connection before responding', async () => {
    server.enqueue(dropConnection());
    await expect(post({})).rejects.toThrow();
    expect(server.generations[0]?.outcome).toBe('dropped before-response');
  });

  it('drops the connection after a first chunk of a stream', async () => {
    server.enqueue(dropConnection('mid-stream', { partialText: 'Partial' }));
    const response = await post({}, { stream: true });
    expect(response.status).toBe(200);
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toMatch(/^data: \{"candidates":\[\{"content":\{"role":"model","parts":\[\{"text":"Partial"\}\]\}/);
    await expect(reader?.read()).rejects.toThrow();
    expect(server.generations[0]?.outcome).toBe('dropped mid-stream');
  });
});

describe('API key', () => {
  it('checks x-goog-api-key (or key=) when apiKey is set, without using a step', async () => {
    await server.close();
    server = await startScriptedGeminiServer({ apiKey: 'test-key', script: [reply('ok'), reply('ok too')] });
    const missing = await post({}, { headers: { 'x-goog-api-key': '' } });
    expect(missing.status).toBe(403);
    expect(await errorOf(missing)).toMatchObject({ code: 403, status: 'PERMISSION_DENIED', message: expect.stringContaining('unregistered callers') });
    const wrong = await post({}, { headers: { 'x-goog-api-key': 'wrong' } });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toEqual({
      code: 400,
      status: 'INVALID_ARGUMENT',
      message: 'API key not valid. Please pass a valid API key.',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ],
    });
    expect((await fetch(`${server.url}/v1beta/models`)).status).toBe(403);
    expect(server.remaining).toBe(2);
    expect((await post({})).status).toBe(200);
    const byQuery = await fetch(`${server.url}/v1beta/models/m:generateContent?key=test-key`, { method: 'POST', body: JSON.stringify({ contents: USER }) });
    expect(byQuery.status).toBe(200);
    expect(server.requests.map((request) => request.outcome)).toEqual(['error 403', 'error 400', 'error 403', 'reply', 'reply']);
  });

  it('checks nothing without apiKey', async () => {
    server.enqueue(reply('fine'));
    const response = await fetch(`${server.url}/v1beta/models/m:generateContent`, { method: 'POST', body: JSON.stringify({ contents: USER }) });
    expect(response.status).toBe(200);
  });
});

describe('script, responder and log', () => {
  it('records the request: model, system, contents, transcript, tools, configs, headers', async () => {
    server.enqueue(reply('ok'));
    const contents = [
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ text: 'Checking.' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { result: 'Sunny' } } }] },
    ];
    const tools = [{ functionDeclarations: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }] }, { googleSearch: {} }];
    const toolConfig = { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } };
    const generationConfig = { maxOutputTokens: 256, temperature: 0.2, thinkingConfig: { thinkingBudget: 0 } };
    await post({ contents, systemInstruction: { role: 'system', parts: [{ text: 'Be brief.' }, { text: 'Be kind.' }] }, tools, toolConfig, generationConfig });
    const [request] = server.generations;
    expect(request).toMatchObject({
      index: 1,
      method: 'POST',
      path: '/v1beta/models/gemini-test:generateContent',
      apiVersion: 'v1beta',
      model: 'gemini-test',
      stream: false,
      contents,
      system: 'Be brief.\nBe kind.',
      tools,
      functionDeclarations: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
      toolConfig,
      generationConfig,
      lastUserText: 'Weather in Paris?',
      headers: { 'x-goog-api-key': 'test-key' },
      outcome: 'reply',
      step: { kind: 'reply', text: 'ok' },
    });
    expect(request?.transcript).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'model', text: 'Checking.', functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'user', text: '', functionResponses: [{ name: 'get_weather', response: { result: 'Sunny' }, text: 'Sunny' }] },
    ]);
  });

  it('uses queued steps first, then the responder; a Responder written for the OpenAI server fits', async () => {
    const echo: Responder = (request) => reply(`echo: ${request.lastUserText ?? ''}`);
    server.enqueue(reply('queued')).respondWith(echo);
    expect(partsOf(await json(post({})))[0]?.text).toBe('queued');
    expect(partsOf(await json(post({})))[0]?.text).toBe('echo: Hello there');
    expect(server.remaining).toBe(0);
  });

  it('plays a scriptConversation, and answers 500 when the responder throws', async () => {
    server.respondWith(scriptConversation([{ expect: 'Hello there', reply: 'first' }]));
    expect(partsOf(await json(post({})))[0]?.text).toBe('first');
    const failed = await post({});
    expect(failed.status).toBe(500);
    expect(server.generations[1]?.outcome).toBe('error 500');
    server.respondWith(() => {
      throw new Error('boom');
    });
    expect(await errorOf(post({}))).toMatchObject({ message: 'scripted server: the responder threw for request #3: boom' });
    expect(server.generations[2]?.outcome).toBe('responder error');
  });

  it('takes the script and responder from the options; reset clears them and the log', async () => {
    await server.close();
    server = await startScriptedGeminiServer({ script: [reply('from script')], responder: () => reply('from responder') });
    expect(partsOf(await json(post({})))[0]?.text).toBe('from script');
    expect(partsOf(await json(post({})))[0]?.text).toBe('from responder');
    server.reset();
    expect(server.requests).toEqual([]);
    expect((await post({})).status).toBe(500);
    expect(server.requests[0]?.index).toBe(1);
  });

  it('waits delayMs, records a client abort during it, and closes promptly with a request in flight', async () => {
    server.enqueue(reply('slow', { delayMs: 5_000 }), reply('slower', { delayMs: 5_000 }));
    const controller = new AbortController();
    const aborted = post({}, { signal: controller.signal });
    await expect.poll(() => server.generations[0]?.outcome).toBe('pending');
    controller.abort();
    await expect(aborted).rejects.toThrow();
    await expect.poll(() => server.generations[0]?.outcome).toBe('aborted');
    const inFlight = post({}).catch(() => 'cut');
    await expect.poll(() => server.generations[1]?.step).toBeDefined();
    const started = Date.now();
    await server.close();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await inFlight).toBe('cut');
    expect(server.generations[1]?.outcome).toBe('server closed');
  });

  it('lists the configured models the Gemini way', async () => {
    await server.close();
    server = await startScriptedGeminiServer({ models: ['gemini-a', 'gemini-b'] });
    const list = await json<{ models: { name: string; supportedGenerationMethods: string[] }[]; nextPageToken?: string }>(fetch(`${server.url}/v1beta/models`));
    expect(list.models.map((model) => model.name)).toEqual(['models/gemini-a', 'models/gemini-b']);
    expect(list.models[0]).toMatchObject({ displayName: 'gemini-a', supportedGenerationMethods: ['generateContent', 'countTokens'] });
    expect(list.nextPageToken).toBeUndefined();
    expect(await json(fetch(`${server.url}/v1beta/models/gemini-b`))).toMatchObject({ name: 'models/gemini-b' });
    const missing = await fetch(`${server.url}/v1beta/models/gemini-c`);
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ status: 'NOT_FOUND', message: 'models/gemini-c is not found for API version v1beta.' });
    expect(server.requests.map((request) => request.outcome)).toEqual(['models', 'models', 'error 404']);
    expect(server.generations).toEqual([]);
  });
});

describe('through ChatGoogleGenerativeAI', () => {
  beforeEach(async () => {
    await server.close();
    server = await startScriptedGeminiServer({ apiKey: 'test-key' });
  });

  function model(options: { apiKey?: string; model?: string } = {}): ChatGoogleGenerativeAI {
    return new ChatGoogleGenerativeAI({ model: options.model ?? 'scripted-model', apiKey: options.apiKey ?? 'test-key', maxRetries: 0, baseUrl: server.url });
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

  /** What the test wraps of `@google/generative-ai`'s GenerativeModel. */
  interface StreamingClient {
    generateContentStream(...args: unknown[]): Promise<{ response: Promise<unknown> }>;
  }

  const weather = tool(async ({ city }) => `Sunny in ${String(city)}`, {
    name: 'get_weather',
    description: 'Current weather of a city',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const,
  });

  it('runs the example of docs/testing-pipelines.md', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 }), reply('Version 2.0 is out.'));
    const model = new ChatGoogleGenerativeAI({ model: 'scripted-model', apiKey: 'test-key', maxRetries: 0, baseUrl: server.url });
    await expect(model.invoke('Write a release note')).rejects.toMatchObject({ status: 429 });
    expect((await model.invoke('Write a release note')).content).toBe('Version 2.0 is out.');
    expect(server.generations.map((r) => r.outcome)).toEqual(['error 429', 'reply']);
  });

  it('invoke returns the text and the scripted usage; the request is recorded', async () => {
    server.enqueue(reply('Hello from the script', { usage: { promptTokens: 12, completionTokens: 4 } }));
    const answer = await model({ model: 'gemini-2.5-flash' }).invoke([new SystemMessage('Be nice.'), new HumanMessage('Hi there')]);
    expect(answer.content).toBe('Hello from the script');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 4, total_tokens: 16 });
    expect(answer.response_metadata).toMatchObject({ finishReason: 'STOP' });
    const [request] = server.generations;
    expect(request).toMatchObject({
      path: '/v1beta/models/gemini-2.5-flash:generateContent',
      apiVersion: 'v1beta',
      model: 'gemini-2.5-flash',
      stream: false,
      system: 'Be nice.',
      contents: [{ role: 'user', parts: [{ text: 'Hi there' }] }],
      lastUserText: 'Hi there',
      headers: { 'x-goog-api-key': 'test-key', 'x-goog-api-client': expect.stringMatching(/genai-js\//) },
    });
  });

  it('sends the generation config (max output tokens, temperature, thinking config)', async () => {
    server.enqueue(reply('ok'));
    const configured = new ChatGoogleGenerativeAI({
      model: 'gemini-2.5-flash',
      apiKey: 'test-key',
      maxRetries: 0,
      baseUrl: server.url,
      maxOutputTokens: 128,
      temperature: 0.3,
      thinkingConfig: { thinkingBudget: 0 },
    });
    await configured.invoke('hi');
    expect(server.generations[0]?.generationConfig).toMatchObject({ maxOutputTokens: 128, temperature: 0.3, thinkingConfig: { thinkingBudget: 0 } });
  });

  it('stream delivers the reply in several chunks, and the usage', async () => {
    server.enqueue(reply('one two three four five', { usage: { promptTokens: 7, completionTokens: 5 } }));
    const chunks = await collect(await model().stream('count'));
    expect(chunks.length).toBeGreaterThanOrEqual(5);
    const whole = merge(chunks);
    expect(whole.content).toBe('one two three four five');
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 7, output_tokens: 5, total_tokens: 12 });
    expect(server.generations[0]).toMatchObject({ path: '/v1beta/models/scripted-model:streamGenerateContent', stream: true, sse: true });
  });

  it('reports deterministic usage when the step gives none', async () => {
    server.enqueue(reply('three words here'));
    expect((await model().invoke('say something nice')).usage_metadata).toMatchObject({ input_tokens: 3, output_tokens: 3, total_tokens: 6 });
  });

  it('bindTools: a functionCall answer comes back as tool_calls, and the function response goes back', async () => {
    server.enqueue(toolCall('get_weather', { city: 'Paris' }), reply('It is sunny in Paris.'));
    const bound = model().bindTools([weather]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await bound.invoke([question]);
    // Gemini sends no call ids: LangChain makes up a uuid.
    expect(first.tool_calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' }, id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'tool_call' }]);

    const call = first.tool_calls?.[0];
    const result = new ToolMessage({ content: `Sunny in ${String(call?.args['city'])}`, tool_call_id: call?.id ?? '' });
    const second = await bound.invoke([question, first, result]);
    expect(second.content).toBe('It is sunny in Paris.');

    const [toolRequest, followUp] = server.generations;
    expect(toolRequest?.functionDeclarations).toEqual([
      { name: 'get_weather', description: 'Current weather of a city', parameters: expect.objectContaining({ properties: { city: { type: 'string' } } }) },
    ]);
    expect(followUp?.transcript).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'model', text: '', functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      { role: 'user', text: '', functionResponses: [{ name: 'get_weather', response: { result: 'Sunny in Paris' }, text: 'Sunny in Paris' }] },
    ]);
    expect(followUp?.lastUserText).toBe('Weather in Paris?');
  });

  it('tool_choice becomes a toolConfig with allowed function names', async () => {
    server.enqueue(toolCall('get_weather', { city: 'Oslo' }, { id: 'call-1' }));
    const answer = await model().bindTools([weather], { tool_choice: 'get_weather' }).invoke('Oslo?');
    expect(answer.tool_calls?.[0]).toMatchObject({ id: 'call-1', name: 'get_weather', args: { city: 'Oslo' } });
    expect(server.generations[0]?.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } });
  });

  it('streamed function calls merge into tool_calls', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'get_weather', arguments: { city: 'Paris' }, id: 'w1' },
          { name: 'get_weather', arguments: { city: 'Oslo' }, id: 'w2' },
        ],
        { text: 'Checking both cities', usage: { promptTokens: 3, completionTokens: 8 } },
      ),
    );
    const chunks = await collect(await model().bindTools([weather]).stream([new HumanMessage('Two cities?')]));
    expect(chunks.length).toBeGreaterThan(3);
    const whole = merge(chunks);
    expect(whole.tool_calls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' }, id: 'w1', type: 'tool_call' },
      { name: 'get_weather', args: { city: 'Oslo' }, id: 'w2', type: 'tool_call' },
    ]);
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 3, output_tokens: 8, total_tokens: 11 });
  });

  it('429 rejects with status 429; the wait is only in errorDetails and the message, the SDK keeps no headers', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 7 }));
    const error = await rejection(model().invoke('hi'));
    expect(error.constructor.name).toBe('GoogleGenerativeAIFetchError');
    expect(error.status).toBe(429);
    expect(error.statusText).toBe('Too Many Requests');
    expect(error.headers).toBeUndefined();
    expect(error.errorDetails).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }]);
    expect(error.message).toBe(
      `[GoogleGenerativeAI Error]: Error fetching from ${server.url}/v1beta/models/scripted-model:generateContent: [429 Too Many Requests] ` +
        'Resource has been exhausted (e.g. check quota). Please retry in 7s. [{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]',
    );
    // LangChain's caller classifies the 429 (no retry-after header for it to read).
    expect(error).toMatchObject({ name: 'RateLimitCapacityError', rateLimitType: 'capacity', rateLimitReason: 'headerless_429' });
  });

  it('a wrong API key rejects with 400 API_KEY_INVALID, using no step', async () => {
    server.enqueue(reply('not for you'));
    const error = await rejection(model({ apiKey: 'wrong-key' }).invoke('hi'));
    expect(error.constructor.name).toBe('GoogleGenerativeAIFetchError');
    expect(error.status).toBe(400);
    expect(error.errorDetails).toEqual([expect.objectContaining({ reason: 'API_KEY_INVALID' })]);
    expect(error.message).toContain('[400 Bad Request] API key not valid. Please pass a valid API key.');
    expect(server.generations[0]).toMatchObject({ outcome: 'error 400', headers: { 'x-goog-api-key': 'wrong-key' } });
    expect(server.remaining).toBe(1);
  });

  it('503 rejects from stream() itself; a prompt too long shows the input token count', async () => {
    server.enqueue(httpError(503), httpError(400, { code: 'context_length_exceeded' }));
    const overloaded = await rejection(model().stream('hi'));
    expect(overloaded).toMatchObject({ status: 503, statusText: 'Service Unavailable' });
    expect(overloaded.message).toContain('[503 Service Unavailable] The model is overloaded.');
    const tooLong = await rejection(model().invoke('a long prompt'));
    expect(tooLong).toMatchObject({ status: 400 });
    expect(tooLong.message).toContain('exceeds the maximum number of tokens allowed');
  });

  it('a dropped connection rejects: before the response, and mid-stream after the partial text', async () => {
    server.enqueue(dropConnection(), dropConnection('mid-stream', { partialText: 'Partial ans' }));
    const before = await rejection(model().invoke('hi'));
    expect(before.constructor.name).toBe('GoogleGenerativeAIError');
    expect(before.status).toBeUndefined();
    expect(before.message).toMatch(/Error fetching from .*: fetch failed$/);
    // generateContentStream() also returns `response`, a promise of the whole
    // answer that LangChain never awaits: when the stream breaks it rejects
    // unhandled (Node's default would end the process). Catch it here, and check it.
    const streaming = model();
    const responses: Promise<unknown>[] = [];
    // `client` (the SDK's GenerativeModel) is private in the typings.
    const client = (streaming as unknown as { client: StreamingClient }).client;
    const original = client.generateContentStream.bind(client);
    client.generateContentStream = async (...args) => {
      const result = await original(...args);
      responses.push(result.response.catch((error: unknown) => error));
      return result;
    };
    const received: string[] = [];
    const stream = await streaming.stream('hi');
    const midStream = await rejection(
      (async () => {
        for await (const chunk of stream) received.push(String(chunk.content));
      })(),
    );
    expect(received.join('')).toBe('Partial ans');
    expect(midStream.message).toBe('[GoogleGenerativeAI Error]: Error reading from the stream');
    expect(await responses[0]).toMatchObject({ message: '[GoogleGenerativeAI Error]: Error reading from the stream' });
    expect(server.generations.map((request) => request.outcome)).toEqual(['dropped before-response', 'dropped mid-stream']);
  });
});
