import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  dropConnection,
  httpError,
  reply,
  startScriptedOpenAIServer,
  toolCall,
  toolCalls,
  type ScriptedOpenAIServer,
} from '../src/index.js';

/** The protocol, seen with plain `fetch`. */

interface Chunk {
  id: string;
  object: string;
  model: string;
  choices: { index: number; delta: Record<string, unknown> & { content?: string | null; role?: string; tool_calls?: ToolDelta[] }; finish_reason: string | null }[];
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
}
interface ToolDelta {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer();
});

afterEach(async () => {
  await server.close();
});

function chat(body: Record<string, unknown>, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${server.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key', ...init.headers },
    body: JSON.stringify({ model: 'gpt-test', messages: [{ role: 'user', content: 'Hello there' }], ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

interface CompletionBody {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: { index: number; message: { role: string; content: string | null; tool_calls?: unknown[] }; finish_reason: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}
interface ErrorBody {
  error: { message: string; type: string; param: null; code: string | null };
}

/** The JSON body of a response, typed as the test expects it. */
async function json<T = CompletionBody>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

/** The assistant text of a non-streaming completion. */
async function replyText(response: Response | Promise<Response>): Promise<string | null | undefined> {
  return (await json(response)).choices[0]?.message.content;
}

/** The `error` of an error response. */
async function errorOf(response: Response | Promise<Response>): Promise<ErrorBody['error']> {
  return (await json<ErrorBody>(response)).error;
}

/** The `data:` payloads of an event stream; `[DONE]` kept as a string. */
async function events(response: Response): Promise<(Chunk | '[DONE]')[]> {
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((event) => event !== '')
    .map((event) => {
      expect(event.startsWith('data: ')).toBe(true);
      const data = event.slice('data: '.length);
      return data === '[DONE]' ? '[DONE]' : (JSON.parse(data) as Chunk);
    });
}

function contentChunks(all: (Chunk | '[DONE]')[]): Chunk[] {
  return all.filter((event): event is Chunk => event !== '[DONE]' && event.choices.length > 0);
}

describe('non-streaming chat completions', () => {
  it('answers a reply as a chat.completion object', async () => {
    server.enqueue(reply('Hi, how can I help?', { usage: { promptTokens: 11, completionTokens: 5 } }));
    const response = await chat({});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-request-id')).toBe('req_scripted_1');
    const body = await json(response);
    expect(body).toMatchObject({
      id: 'chatcmpl-scripted-1',
      object: 'chat.completion',
      model: 'gpt-test',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi, how can I help?' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 },
    });
    expect(body.choices[0]?.message.tool_calls).toBeUndefined();
    expect(typeof body.created).toBe('number');
    expect(server.completions[0]?.outcome).toBe('reply');
  });

  it('uses the model and finish reason of the step when given', async () => {
    server.enqueue(reply('cut', { model: 'other-model', finishReason: 'length' }));
    const body = await json(chat({}));
    expect(body.model).toBe('other-model');
    expect(body.choices[0]?.finish_reason).toBe('length');
  });

  it('answers tool calls with JSON arguments and default ids', async () => {
    server.enqueue(
      toolCalls([
        { name: 'read_file', arguments: { path: 'a.txt' } },
        { name: 'grep', arguments: '{"pattern":', id: 'call_custom' },
      ]),
    );
    const body = await json(chat({}));
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
          { id: 'call_custom', type: 'function', function: { name: 'grep', arguments: '{"pattern":' } },
        ],
      },
    });
    expect(server.completions[0]?.outcome).toBe('tool_calls');
  });

  it('counts usage deterministically when the step gives none', async () => {
    server.enqueue(reply('Hello big world'), toolCall('lookup', { city: 'Paris', day: 'today' }, { text: 'Let me check.' }));
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: [{ type: 'text', text: 'Say hello' }, { type: 'text', text: 'to the world' }] },
    ];
    const first = await json(chat({ messages }));
    // 3 + 5 words of content; 3 words of reply.
    expect(first.usage).toEqual({ prompt_tokens: 8, completion_tokens: 3, total_tokens: 11 });
    const second = await json(chat({ messages: [] }));
    // No words still counts 1; "Let me check." is 3 words plus 1 for '{"city":"Paris","day":"today"}'.
    expect(second.usage).toEqual({ prompt_tokens: 1, completion_tokens: 4, total_tokens: 5 });
  });
});

describe('streaming chat completions', () => {
  it('streams a reply word by word, role first, finish reason last, then [DONE]', async () => {
    server.enqueue(reply('One two three four'));
    const response = await chat({ stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const all = await events(response);
    expect(all.at(-1)).toBe('[DONE]');
    const chunks = contentChunks(all);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content)).toEqual(['One', ' two', ' three', ' four']);
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.slice(1).every((chunk) => chunk.choices[0]?.delta.role === undefined)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.finish_reason)).toEqual([null, null, null, 'stop']);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === 'chatcmpl-scripted-1')).toBe(true);
    // No usage chunk unless asked for.
    expect(all).toHaveLength(5);
    expect(server.completions[0]).toMatchObject({ stream: true, outcome: 'reply' });
  });

  it('splits into the requested number of chunks and adds a usage chunk when asked', async () => {
    server.enqueue(reply('abcdefghij', { chunks: 3, usage: { promptTokens: 4, completionTokens: 2 } }));
    const all = await events(await chat({ stream: true, stream_options: { include_usage: true } }));
    const chunks = contentChunks(all);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content).join('')).toBe('abcdefghij');
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.usage === null)).toBe(true);
    const usage = all.at(-2);
    expect(usage).toMatchObject({ choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } });
  });

  it('streams an empty reply as one chunk', async () => {
    server.enqueue(reply(''));
    const chunks = contentChunks(await events(await chat({ stream: true })));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.choices[0]).toMatchObject({ delta: { role: 'assistant', content: '' }, finish_reason: 'stop' });
  });

  it('streams tool calls the OpenAI way', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'read_file', arguments: { path: 'notes/todo.txt' } },
          { name: 'list_dir', arguments: { dir: '.' } },
        ],
        { text: 'Reading it.' },
      ),
    );
    const chunks = contentChunks(await events(await chat({ stream: true })));
    expect(chunks[0]?.choices[0]?.delta).toMatchObject({ role: 'assistant', content: 'Reading' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Reading it.');
    const toolDeltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
    const starts = toolDeltas.filter((delta) => delta.id !== undefined);
    expect(starts).toEqual([
      { index: 0, id: 'call_1_1', type: 'function', function: { name: 'read_file', arguments: '' } },
      { index: 1, id: 'call_1_2', type: 'function', function: { name: 'list_dir', arguments: '' } },
    ]);
    const argumentsOf = (index: number): string =>
      toolDeltas
        .filter((delta) => delta.index === index)
        .map((delta) => delta.function.arguments)
        .join('');
    expect(JSON.parse(argumentsOf(0))).toEqual({ path: 'notes/todo.txt' });
    expect(JSON.parse(argumentsOf(1))).toEqual({ dir: '.' });
    // Arguments arrive in more than one piece.
    expect(toolDeltas.filter((delta) => delta.index === 0 && delta.id === undefined).length).toBeGreaterThan(1);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.slice(0, -1).every((chunk) => chunk.choices[0]?.finish_reason === null)).toBe(true);
  });

  it('stops quietly when the client cancels between chunks', async () => {
    server.enqueue(reply('slow words keep coming', { chunkDelayMs: 10_000 }));
    const controller = new AbortController();
    const response = await chat({ stream: true }, { signal: controller.signal });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"content":"slow"');
    controller.abort();
    await vi.waitFor(() => expect(server.completions[0]?.outcome).toBe('aborted'));
    // The server still serves.
    server.enqueue(reply('still here'));
    expect(await replyText(chat({}))).toBe('still here');
  });
});

describe('errors and failures', () => {
  it('answers an error step with status, Retry-After and an OpenAI-shaped body', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 3 }), httpError(400, { code: 'context_length_exceeded', message: 'too long' }), httpError(503));
    const limited = await chat({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.json()).toEqual({
      error: { message: 'Rate limit reached for requests', type: 'rate_limit_exceeded', param: null, code: 'rate_limit_exceeded' },
    });
    const tooLong = await chat({});
    expect(tooLong.status).toBe(400);
    expect(tooLong.headers.get('retry-after')).toBeNull();
    expect(await tooLong.json()).toEqual({ error: { message: 'too long', type: 'invalid_request_error', param: null, code: 'context_length_exceeded' } });
    const overloaded = await chat({ stream: true });
    expect(overloaded.status).toBe(503);
    expect((await errorOf(overloaded)).type).toBe('server_error');
    expect(server.completions.map((request) => request.outcome)).toEqual(['error 429', 'error 400', 'error 503']);
  });

  it('answers 500 with an explanation when nothing is scripted', async () => {
    const response = await chat({ messages: [{ role: 'user', content: 'Plan the release' }] });
    expect(response.status).toBe(500);
    const body = await json<ErrorBody>(response);
    expect(body.error.message).toBe('scripted server: no response scripted for request #1 (last user message: "Plan the release")');
    expect(body.error.type).toBe('server_error');
    expect(server.completions[0]?.outcome).toBe('no script');
  });

  it('answers 400 to bad JSON and keeps serving', async () => {
    const response = await fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": ' });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ type: 'invalid_request_error', param: null });
    expect(server.requests[0]).toMatchObject({ outcome: 'error 400', body: undefined });
    server.enqueue(reply('fine'));
    expect((await chat({})).status).toBe(200);
    // The bad request did not use the step.
    expect(server.remaining).toBe(0);
  });

  it('answers 404 to unknown routes', async () => {
    const response = await fetch(`${server.url}/embeddings`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    const body = await json<ErrorBody>(response);
    expect(body.error.message).toContain('Unknown request URL: POST /v1/embeddings');
    expect(body.error.type).toBe('invalid_request_error');
    const noPrefix = await fetch(server.url.replace(/\/v1$/, '/chat/completions'), { method: 'POST', body: '{}' });
    expect(noPrefix.status).toBe(404);
    expect(server.requests.map((request) => request.outcome)).toEqual(['error 404', 'error 404']);
  });

  it('drops the connection before responding', async () => {
    server.enqueue(dropConnection(), dropConnection('mid-stream'));
    await expect(chat({})).rejects.toThrow();
    // mid-stream on a non-streaming request drops before responding too.
    await expect(chat({})).rejects.toThrow();
    expect(server.completions.map((request) => request.outcome)).toEqual(['dropped before-response', 'dropped before-response']);
  });

  it('drops the connection after the first chunk of a stream', async () => {
    server.enqueue(dropConnection('mid-stream', { partialText: 'Partial' }));
    const response = await chat({ stream: true });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    let received = '';
    const failure = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          received += new TextDecoder().decode(value);
        }
      } catch (error) {
        return error;
      }
    })();
    expect(failure).toBeInstanceOf(Error);
    expect(received).toContain('"content":"Partial"');
    expect(received).not.toContain('[DONE]');
    expect(server.completions[0]?.outcome).toBe('dropped mid-stream');
  });
});

describe('delays, aborts and close', () => {
  it('records a client abort during a delay and keeps serving', async () => {
    server.enqueue(reply('too late', { delayMs: 10_000 }));
    const controller = new AbortController();
    const pending = chat({}, { signal: controller.signal });
    await vi.waitFor(() => expect(server.completions[0]?.step).toBeDefined());
    controller.abort();
    await expect(pending).rejects.toThrow();
    await vi.waitFor(() => expect(server.completions[0]?.outcome).toBe('aborted'));
    server.enqueue(reply('next'));
    expect(await replyText(chat({}))).toBe('next');
  });

  it('waits delayMs before answering', async () => {
    server.enqueue(reply('later', { delayMs: 60 }));
    const started = Date.now();
    await (await chat({})).json();
    // Lower bound only: the reply cannot come before the delay (5 ms slack for timer rounding).
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('closes promptly with a request in flight', async () => {
    server.enqueue(reply('never sent', { delayMs: 30_000 }));
    const pending = chat({});
    pending.catch(() => {});
    await vi.waitFor(() => expect(server.completions[0]?.step).toBeDefined());
    const started = Date.now();
    await server.close();
    // Generous bound: without cutting the request off, close() would wait the 30 s delay.
    expect(Date.now() - started).toBeLessThan(2_000);
    await expect(pending).rejects.toThrow();
    expect(server.completions[0]?.outcome).toBe('server closed');
    await expect(server.close()).resolves.toBeUndefined();
  });

  it('closes with idle keep-alive connections open', async () => {
    server.enqueue(reply('a'), reply('b'));
    await (await chat({})).json();
    await (await chat({})).json();
    const started = Date.now();
    await server.close();
    // Generous bound: an idle keep-alive socket left open would hold close() for the 5 s keep-alive timeout.
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('script, responder and log', () => {
  it('uses queued steps first, then the responder', async () => {
    const seen: string[] = [];
    expect(server.enqueue(reply('queued 1')).enqueue(reply('queued 2'))).toBe(server);
    expect(server.remaining).toBe(2);
    server.respondWith((request) => {
      seen.push(request.lastUserText ?? '');
      return reply(`echo: ${request.lastUserText}`);
    });
    const texts: string[] = [];
    for (const content of ['a', 'b', 'c', 'd']) {
      texts.push((await replyText(chat({ messages: [{ role: 'user', content }] }))) ?? '');
    }
    expect(texts).toEqual(['queued 1', 'queued 2', 'echo: c', 'echo: d']);
    expect(seen).toEqual(['c', 'd']);
    expect(server.remaining).toBe(0);
  });

  it('answers 500 when the responder throws', async () => {
    server.respondWith(async () => {
      throw new Error('boom');
    });
    const response = await chat({});
    expect(response.status).toBe(500);
    expect((await errorOf(response)).message).toBe('scripted server: the responder threw for request #1: boom');
    expect(server.completions[0]?.outcome).toBe('responder error');
  });

  it('takes the script and responder from the options', async () => {
    await server.close();
    server = await startScriptedOpenAIServer({ script: [reply('from script')], responder: () => reply('from responder') });
    const first = await replyText(chat({}));
    const second = await replyText(chat({}));
    expect([first, second]).toEqual(['from script', 'from responder']);
  });

  it('records every request with its chat fields', async () => {
    server.enqueue(reply('ok'));
    const tools = [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }];
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: [{ type: 'text', text: 'second' }, { type: 'image_url', image_url: { url: 'data:,' } }, { type: 'text', text: 'question' }] },
    ];
    await (await chat({ model: 'm-1', messages, tools, tool_choice: 'auto' }, { headers: { 'X-Custom': 'yes' } })).json();
    await (await fetch(`${server.url}/models`)).json();
    const [completion, models] = server.requests;
    expect(completion).toMatchObject({
      index: 1,
      method: 'POST',
      path: '/v1/chat/completions',
      model: 'm-1',
      stream: false,
      messages,
      tools,
      toolChoice: 'auto',
      lastUserText: 'second\nquestion',
      outcome: 'reply',
      step: { kind: 'reply', text: 'ok' },
    });
    expect(completion?.headers['authorization']).toBe('Bearer test-key');
    expect(completion?.headers['x-custom']).toBe('yes');
    expect(completion?.body).toMatchObject({ model: 'm-1', tool_choice: 'auto' });
    expect(Math.abs((completion?.at ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(models).toMatchObject({ index: 2, method: 'GET', path: '/v1/models', outcome: 'models', body: undefined });
    expect(models?.model).toBeUndefined();
    expect(server.completions).toEqual([completion]);
  });

  it('reset clears the queue, the responder and the log', async () => {
    server.enqueue(reply('one'), reply('two')).respondWith(() => reply('r'));
    await (await chat({})).json();
    server.reset();
    expect(server.remaining).toBe(0);
    expect(server.requests).toEqual([]);
    const response = await chat({});
    expect(response.status).toBe(500);
    expect(server.requests.map((request) => [request.index, request.outcome])).toEqual([[1, 'no script']]);
  });
});

describe('models and API key', () => {
  it('lists the configured models', async () => {
    const list = await (await fetch(`${server.url}/models`)).json();
    expect(list).toEqual({ object: 'list', data: [{ id: 'scripted-model', object: 'model', created: expect.any(Number), owned_by: 'scripted' }] });
    await server.close();
    server = await startScriptedOpenAIServer({ models: ['a', 'b/c'] });
    const custom = await json<{ data: { id: string }[] }>(fetch(`${server.url}/models`));
    expect(custom.data.map((model) => model.id)).toEqual(['a', 'b/c']);
    expect(await (await fetch(`${server.url}/models/b%2Fc`)).json()).toMatchObject({ id: 'b/c', object: 'model' });
    const missing = await fetch(`${server.url}/models/zzz`);
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).code).toBe('model_not_found');
    expect((await fetch(`${server.url}/models/%E0%A4%A`)).status).toBe(404);
  });

  it('rejects a missing or wrong API key with 401 without using a step', async () => {
    await server.close();
    server = await startScriptedOpenAIServer({ apiKey: 'sk-right-key', script: [reply('secret')] });
    const wrong = await chat({}, { headers: { authorization: 'Bearer sk-wrong-key' } });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: {
        message: expect.stringMatching(/^Incorrect API key provided: sk-\*\*\*-key\./),
        type: 'invalid_request_error',
        code: 'invalid_api_key',
        param: null,
      },
    });
    const missing = await fetch(`${server.url}/models`);
    expect(missing.status).toBe(401);
    expect((await errorOf(missing)).code).toBe('invalid_api_key');
    expect(server.remaining).toBe(1);
    const right = await chat({}, { headers: { authorization: 'Bearer sk-right-key' } });
    expect(await replyText(right)).toBe('secret');
    const listed = await fetch(`${server.url}/models`, { headers: { authorization: 'Bearer sk-right-key' } });
    expect(listed.status).toBe(200);
    expect(server.requests.map((request) => request.outcome)).toEqual(['error 401', 'error 401', 'reply', 'models']);
  });
});
