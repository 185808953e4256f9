import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessageChunk, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  dropConnection,
  guardNetwork,
  httpError,
  reply,
  scriptConversation,
  startScriptedAnthropicServer,
  toolCall,
  toolCalls,
  type NetworkGuard,
  type Responder,
  type ScriptedAnthropicServer,
} from '../src/index.js';

/** The scripted Anthropic Messages API server: its protocol seen with plain `fetch`, then through LangChain's `ChatAnthropic`. */

/** The guard refuses fetches to hosts other than 127.0.0.1 and lists them. */
let guard: NetworkGuard;

beforeAll(() => {
  guard = guardNetwork();
});

afterAll(() => {
  guard.restore();
});

let server: ScriptedAnthropicServer;

beforeEach(async () => {
  server = await startScriptedAnthropicServer();
});

afterEach(async () => {
  await server.close();
  expect(guard.refused).toEqual([]);
});

function post(body: Record<string, unknown>, init: { headers?: Record<string, string>; signal?: AbortSignal } = {}): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test-key', 'anthropic-version': '2023-06-01', ...init.headers },
    body: JSON.stringify({ model: 'claude-test', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello there' }], ...body }),
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

interface MessageBody {
  id: string;
  type: string;
  role: string;
  model: string;
  content: Record<string, unknown>[];
  stop_reason: string;
  stop_sequence: null;
  usage: { input_tokens: number; output_tokens: number };
}
interface ErrorBody {
  type: 'error';
  error: { type: string; message: string };
  request_id: string;
}
interface StreamEvent {
  event: string;
  data: Record<string, unknown> & { type: string; index?: number; delta?: Record<string, unknown> };
}

async function json<T = MessageBody>(response: Response | Promise<Response>): Promise<T> {
  return (await (await response).json()) as T;
}

async function errorOf(response: Response | Promise<Response>): Promise<ErrorBody['error']> {
  return (await json<ErrorBody>(response)).error;
}

/** The text of a non-streaming answer (its text blocks joined). */
async function replyText(response: Response | Promise<Response>): Promise<string> {
  return (await json(response)).content.map((block) => (block['type'] === 'text' ? String(block['text']) : '')).join('');
}

/** The events of a stream, each checked to be `event: <type>\ndata: <json with that type>\n\n`. */
async function events(response: Response): Promise<StreamEvent[]> {
  const text = await response.text();
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const match = /^event: (\S+)\ndata: (.*)$/.exec(frame);
      expect(match, frame).not.toBeNull();
      const data = JSON.parse(match?.[2] ?? '') as StreamEvent['data'];
      expect(data.type).toBe(match?.[1]);
      return { event: match?.[1] ?? '', data };
    });
}

/** The pieces of text or partial JSON the deltas of block `index` carry. */
function deltaPieces(all: StreamEvent[], index: number): string[] {
  return all
    .filter((e) => e.event === 'content_block_delta' && e.data.index === index)
    .map((e) => String(e.data.delta?.['type'] === 'text_delta' ? e.data.delta['text'] : e.data.delta?.['partial_json']));
}

describe('non-streaming messages', () => {
  it('answers a reply as a message object', async () => {
    server.enqueue(reply('Hi, how can I help?', { usage: { promptTokens: 11, completionTokens: 5 } }));
    const response = await post({});
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('request-id')).toBe('req_scripted_1');
    expect(await response.json()).toEqual({
      id: 'msg_scripted_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content: [{ type: 'text', text: 'Hi, how can I help?' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, output_tokens: 5 },
    });
    expect(server.messages[0]?.outcome).toBe('reply');
  });

  it('takes the model and the stop reason from the step (OpenAI finish reasons translated)', async () => {
    server.enqueue(reply('cut', { model: 'other-model', finishReason: 'length' }), reply('stopped', { finishReason: 'stop_sequence' }), reply(''));
    const cut = await json(post({}));
    expect(cut).toMatchObject({ model: 'other-model', stop_reason: 'max_tokens' });
    expect((await json(post({}))).stop_reason).toBe('stop_sequence');
    // An empty reply is still one (empty) text block.
    expect((await json(post({}))).content).toEqual([{ type: 'text', text: '' }]);
  });

  it('answers tool calls with tool_use blocks, after the text when there is some', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'read_file', arguments: { path: 'a.txt' } },
          { name: 'grep', arguments: '{"pattern":"x"}', id: 'toolu_custom' },
          { name: 'broken', arguments: '{"pattern":' },
        ],
        { text: 'Let me look.' },
      ),
      toolCall('list_dir', {}),
    );
    const body = await json(post({}));
    expect(body.stop_reason).toBe('tool_use');
    expect(body.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_1_1', name: 'read_file', input: { path: 'a.txt' } },
      { type: 'tool_use', id: 'toolu_custom', name: 'grep', input: { pattern: 'x' } },
      // A string that is not JSON is sent as it is (the real API never does; a client test may want to).
      { type: 'tool_use', id: 'toolu_1_3', name: 'broken', input: '{"pattern":' },
    ]);
    const second = await json(post({}));
    expect(second.content).toEqual([{ type: 'tool_use', id: 'toolu_2_1', name: 'list_dir', input: {} }]);
    expect(server.messages.map((request) => request.outcome)).toEqual(['tool_calls', 'tool_calls']);
  });

  it('counts usage deterministically when the step gives none', async () => {
    server.enqueue(reply('Hello big world'), toolCall('lookup', { city: 'Paris', day: 'today' }, { text: 'Let me check.' }));
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Say hello' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: { ignored: 'in the count' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'to the world' }] }] },
    ];
    const first = await json(post({ system: [{ type: 'text', text: 'You are terse.' }], messages }));
    // 3 words of system, 2 of text, 3 of the tool result; 3 words of reply.
    expect(first.usage).toEqual({ input_tokens: 8, output_tokens: 3 });
    const second = await json(post({ messages: [] }));
    // No words still counts 1; "Let me check." is 3 words plus 1 for '{"city":"Paris","day":"today"}'.
    expect(second.usage).toEqual({ input_tokens: 1, output_tokens: 4 });
  });
});

describe('streaming messages', () => {
  it('streams a reply as named events, text word by word', async () => {
    server.enqueue(reply('One two three four', { usage: { promptTokens: 7, completionTokens: 4 } }));
    const response = await post({ stream: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('request-id')).toBe('req_scripted_1');
    const all = await events(response);
    expect(all.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(all[0]?.data).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_scripted_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 7, output_tokens: 0 },
      },
    });
    expect(all[1]?.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    expect(all[3]?.data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'One' } });
    expect(deltaPieces(all, 0)).toEqual(['One', ' two', ' three', ' four']);
    expect(all[7]?.data).toEqual({ type: 'content_block_stop', index: 0 });
    expect(all[8]?.data).toEqual({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 4 } });
    expect(all[9]?.data).toEqual({ type: 'message_stop' });
    expect(server.messages[0]).toMatchObject({ stream: true, outcome: 'reply' });
  });

  it('splits into the requested number of chunks; an empty reply has no delta', async () => {
    server.enqueue(reply('abcdefghij', { chunks: 3 }), reply(''));
    const pieces = deltaPieces(await events(await post({ stream: true })), 0);
    expect(pieces).toHaveLength(3);
    expect(pieces.join('')).toBe('abcdefghij');
    const empty = await events(await post({ stream: true }));
    expect(empty.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_stop', 'message_delta', 'message_stop']);
  });

  it('streams tool calls as tool_use blocks with input_json_delta pieces', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'read_file', arguments: { path: 'notes/todo.txt' } },
          { name: 'list_dir', arguments: { dir: '.' } },
        ],
        { text: 'Reading it.' },
      ),
    );
    const all = await events(await post({ stream: true }));
    expect(deltaPieces(all, 0).join('')).toBe('Reading it.');
    const starts = all.filter((e) => e.event === 'content_block_start').map((e) => e.data);
    expect(starts).toEqual([
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1_1', name: 'read_file', input: {} } },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1_2', name: 'list_dir', input: {} } },
    ]);
    const jsonDeltas = all.filter((e) => e.data.delta?.['type'] === 'input_json_delta');
    expect(jsonDeltas.every((e) => typeof e.data.delta?.['partial_json'] === 'string')).toBe(true);
    expect(JSON.parse(deltaPieces(all, 1).join(''))).toEqual({ path: 'notes/todo.txt' });
    expect(JSON.parse(deltaPieces(all, 2).join(''))).toEqual({ dir: '.' });
    // The arguments arrive in more than one piece.
    expect(deltaPieces(all, 1).length).toBeGreaterThan(1);
    // Each block is closed before the next starts.
    const order = all.filter((e) => e.event.startsWith('content_block_') && e.event !== 'content_block_delta').map((e) => `${e.event}:${e.data.index}`);
    expect(order).toEqual([
      'content_block_start:0',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_stop:1',
      'content_block_start:2',
      'content_block_stop:2',
    ]);
    expect(all.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
  });

  it('stops quietly when the client cancels between chunks', async () => {
    server.enqueue(reply('slow words keep coming', { chunkDelayMs: 10_000 }));
    const controller = new AbortController();
    const response = await post({ stream: true }, { signal: controller.signal });
    const reader = response.body!.getReader();
    let received = '';
    while (!received.includes('"text":"slow"')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended early: ${received}`);
      received += new TextDecoder().decode(value);
    }
    expect(received).not.toContain('" words"');
    controller.abort();
    await vi.waitFor(() => expect(server.messages[0]?.outcome).toBe('aborted'));
    server.enqueue(reply('still here'));
    expect(await replyText(post({}))).toBe('still here');
  });
});

describe('errors and failures', () => {
  it('answers an error step with status, retry-after and an Anthropic-shaped body', async () => {
    server.enqueue(
      httpError(429, { retryAfterSeconds: 3 }),
      httpError(400, { code: 'context_length_exceeded' }),
      httpError(529),
      httpError(500, { message: 'boom', type: 'custom_error' }),
      httpError(401),
    );
    const limited = await post({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(limited.headers.get('request-id')).toBe('req_scripted_1');
    expect(await limited.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit. Please try again later.' },
      request_id: 'req_scripted_1',
    });
    const tooLong = await post({});
    expect(tooLong.status).toBe(400);
    expect(tooLong.headers.get('retry-after')).toBeNull();
    expect(await errorOf(tooLong)).toEqual({ type: 'invalid_request_error', message: 'prompt is too long: 250000 tokens > 200000 maximum' });
    const overloaded = await post({ stream: true });
    expect(overloaded.status).toBe(529);
    expect(overloaded.headers.get('content-type')).toBe('application/json');
    expect(await errorOf(overloaded)).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(await errorOf(post({}))).toEqual({ type: 'custom_error', message: 'boom' });
    expect((await errorOf(post({}))).type).toBe('authentication_error');
    expect(server.messages.map((request) => request.outcome)).toEqual(['error 429', 'error 400', 'error 529', 'error 500', 'error 401']);
  });

  it('answers 500 with an explanation when nothing is scripted', async () => {
    const response = await post({ messages: [{ role: 'user', content: 'Plan the release' }] });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'scripted server: no response scripted for request #1 (last user message: "Plan the release")' },
      request_id: 'req_scripted_1',
    });
    expect(server.messages[0]?.outcome).toBe('no script');
  });

  it('answers 400 to bad JSON and 404 to unknown routes, using no step', async () => {
    server.enqueue(reply('kept'));
    const bad = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": ' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).type).toBe('invalid_request_error');
    const unknown = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(unknown.status).toBe(404);
    const error = await errorOf(unknown);
    expect(error.type).toBe('not_found_error');
    expect(error.message).toContain('Unknown request URL: POST /v1/complete');
    // The client appends /v1/messages to the root URL; /messages alone is not served.
    expect((await fetch(`${server.url}/messages`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(server.requests.map((request) => request.outcome)).toEqual(['error 400', 'error 404', 'error 404']);
    expect(server.remaining).toBe(1);
  });

  it('drops the connection before responding', async () => {
    server.enqueue(dropConnection(), dropConnection('mid-stream'));
    await expect(post({})).rejects.toThrow();
    // mid-stream on a non-streaming request drops before responding too.
    await expect(post({})).rejects.toThrow();
    expect(server.messages.map((request) => request.outcome)).toEqual(['dropped before-response', 'dropped before-response']);
  });

  it('drops the connection after the start of a stream', async () => {
    server.enqueue(dropConnection('mid-stream', { partialText: 'Partial' }));
    const response = await post({ stream: true });
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
    expect(received).toContain('event: message_start\n');
    expect(received).toContain('"delta":{"type":"text_delta","text":"Partial"}');
    expect(received).not.toContain('message_stop');
    expect(server.messages[0]?.outcome).toBe('dropped mid-stream');
  });
});

describe('API key', () => {
  it('checks x-api-key when apiKey is set, without using a step', async () => {
    await server.close();
    server = await startScriptedAnthropicServer({ apiKey: 'sk-ant-right', script: [reply('secret')] });
    const missing = await post({}, { headers: { 'x-api-key': '' } });
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'x-api-key header is required' },
      request_id: 'req_scripted_1',
    });
    expect(await errorOf(post({}, { headers: { 'x-api-key': 'sk-ant-wrong' } }))).toEqual({ type: 'authentication_error', message: 'invalid x-api-key' });
    // A bearer token is not an API key.
    expect((await post({}, { headers: { 'x-api-key': '', authorization: 'Bearer sk-ant-right' } })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/models`)).status).toBe(401);
    expect(server.remaining).toBe(1);
    expect(await replyText(post({}, { headers: { 'x-api-key': 'sk-ant-right' } }))).toBe('secret');
    expect(server.requests.map((request) => request.outcome)).toEqual(['error 401', 'error 401', 'error 401', 'error 401', 'reply']);
  });

  it('checks nothing without apiKey', async () => {
    server.enqueue(reply('open'));
    const response = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: JSON.stringify({ messages: [] }) });
    expect(await replyText(response)).toBe('open');
  });
});

describe('script, responder and log', () => {
  it('records the request: model, system, messages, transcript, tools, headers', async () => {
    server.enqueue(reply('ok'));
    const tools = [{ name: 'get_weather', description: 'Weather of a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } }];
    const messages = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_a', content: 'Sunny', is_error: false }] },
    ];
    await (
      await post(
        { system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Be kind.' }], messages, tools, tool_choice: { type: 'auto' }, max_tokens: 99 },
        { headers: { 'X-Custom': 'yes' } },
      )
    ).json();
    const [request] = server.messages;
    expect(request).toMatchObject({
      index: 1,
      method: 'POST',
      path: '/v1/messages',
      model: 'claude-test',
      stream: false,
      system: 'Be brief.\nBe kind.',
      messages,
      tools,
      toolChoice: { type: 'auto' },
      maxTokens: 99,
      anthropicVersion: '2023-06-01',
      // The last user message holds only a tool result: the human's last words are earlier.
      lastUserText: 'Weather in Paris?',
      outcome: 'reply',
      step: { kind: 'reply', text: 'ok' },
    });
    expect(request?.transcript).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'assistant', text: 'Checking.', toolUses: [{ id: 'toolu_a', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', text: '', toolResults: [{ toolUseId: 'toolu_a', text: 'Sunny', isError: false }] },
    ]);
    expect(request?.headers['x-api-key']).toBe('test-key');
    expect(request?.headers['x-custom']).toBe('yes');
    expect(Math.abs((request?.at ?? 0) - Date.now())).toBeLessThan(60_000);
  });

  it('uses queued steps first, then the responder; a Responder written for the OpenAI server fits', async () => {
    const echo: Responder = (request) => reply(`echo: ${request.lastUserText}`);
    server.enqueue(reply('queued 1'), reply('queued 2')).respondWith(echo);
    expect(server.remaining).toBe(2);
    const texts: string[] = [];
    for (const content of ['a', 'b', 'c']) texts.push(await replyText(post({ messages: [{ role: 'user', content: [{ type: 'text', text: content }] }] })));
    expect(texts).toEqual(['queued 1', 'queued 2', 'echo: c']);
    expect(server.remaining).toBe(0);
  });

  it('plays a scriptConversation, and answers 500 when the responder throws', async () => {
    const conversation = scriptConversation([{ expect: 'Hello', reply: 'Hi!' }]);
    server.respondWith(conversation);
    expect(await replyText(post({}))).toBe('Hi!');
    expect(conversation.turnsLeft).toBe(0);
    const over = await post({});
    expect(over.status).toBe(500);
    expect((await errorOf(over)).message).toContain('scripted conversation: all 1 turns are used');
    server.respondWith(async () => {
      throw new Error('boom');
    });
    const thrown = await post({});
    expect(thrown.status).toBe(500);
    expect((await errorOf(thrown)).message).toBe('scripted server: the responder threw for request #3: boom');
    expect(server.messages.map((request) => request.outcome)).toEqual(['reply', 'error 500', 'responder error']);
  });

  it('takes the script and responder from the options; reset clears them and the log', async () => {
    await server.close();
    server = await startScriptedAnthropicServer({ script: [reply('from script')], responder: () => reply('from responder') });
    expect([await replyText(post({})), await replyText(post({}))]).toEqual(['from script', 'from responder']);
    server.enqueue(reply('dropped by reset'));
    server.reset();
    expect(server.remaining).toBe(0);
    expect(server.requests).toEqual([]);
    expect((await post({})).status).toBe(500);
    expect(server.requests.map((request) => [request.index, request.outcome])).toEqual([[1, 'no script']]);
  });

  it('waits delayMs, records a client abort during it, and closes promptly with a request in flight', async () => {
    server.enqueue(reply('later', { delayMs: 60 }));
    const started = Date.now();
    await (await post({})).json();
    // Lower bound only (5 ms slack for timer rounding).
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);

    server.enqueue(reply('too late', { delayMs: 10_000 }));
    const controller = new AbortController();
    const aborted = post({}, { signal: controller.signal });
    await vi.waitFor(() => expect(server.messages[1]?.step).toBeDefined());
    controller.abort();
    await expect(aborted).rejects.toThrow();
    await vi.waitFor(() => expect(server.messages[1]?.outcome).toBe('aborted'));

    server.enqueue(reply('never sent', { delayMs: 30_000 }));
    const pending = post({});
    pending.catch(() => {});
    await vi.waitFor(() => expect(server.messages[2]?.step).toBeDefined());
    const closing = Date.now();
    await server.close();
    // Generous bound: without cutting the request off, close() would wait the 30 s delay.
    expect(Date.now() - closing).toBeLessThan(2_000);
    await expect(pending).rejects.toThrow();
    expect(server.messages[2]?.outcome).toBe('server closed');
  });

  it('lists the configured models the Anthropic way', async () => {
    expect(await (await fetch(`${server.url}/v1/models`)).json()).toEqual({
      data: [{ type: 'model', id: 'scripted-model', display_name: 'scripted-model', created_at: '2023-11-14T22:13:20Z' }],
      has_more: false,
      first_id: 'scripted-model',
      last_id: 'scripted-model',
    });
    await server.close();
    server = await startScriptedAnthropicServer({ models: ['a', 'b/c'] });
    expect(await json<Record<string, unknown>>(fetch(`${server.url}/v1/models/b%2Fc`))).toMatchObject({ type: 'model', id: 'b/c' });
    const missing = await fetch(`${server.url}/v1/models/zzz`);
    expect(missing.status).toBe(404);
    expect((await errorOf(missing)).type).toBe('not_found_error');
    expect(server.requests.map((request) => request.outcome)).toEqual(['models', 'error 404']);
    // A model listing is not a messages request.
    expect(server.messages).toEqual([]);
  });
});

/** LangChain's `ChatAnthropic` (with the `@anthropic-ai/sdk` under it) against the server. */
describe('through ChatAnthropic', () => {
  beforeEach(async () => {
    await server.close();
    server = await startScriptedAnthropicServer({ apiKey: 'test-key' });
  });

  function model(options: { apiKey?: string } = {}): ChatAnthropic {
    return new ChatAnthropic({ model: 'scripted-model', apiKey: options.apiKey ?? 'test-key', maxRetries: 0, anthropicApiUrl: server.url });
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

  it('runs the example of docs/testing-pipelines.md', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 }), reply('Version 2.0 is out.'));
    const model = new ChatAnthropic({ model: 'scripted-model', apiKey: 'test-key', maxRetries: 0, anthropicApiUrl: server.url });
    await expect(model.invoke('Write a release note')).rejects.toMatchObject({ status: 429, lc_error_code: 'MODEL_RATE_LIMIT' });
    expect((await model.invoke('Write a release note')).content).toBe('Version 2.0 is out.');
    expect(server.messages.map((r) => r.outcome)).toEqual(['error 429', 'reply']);
  });

  it('invoke returns the text and the scripted usage', async () => {
    server.enqueue(reply('Hello from the script', { usage: { promptTokens: 12, completionTokens: 4 } }));
    const answer = await model().invoke([new SystemMessage('Be nice.'), new HumanMessage('Hi there')]);
    expect(answer.content).toBe('Hello from the script');
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 12, output_tokens: 4, total_tokens: 16 });
    expect(answer.response_metadata).toMatchObject({ stop_reason: 'end_turn', model: 'scripted-model', id: 'msg_scripted_1' });
    const [request] = server.messages;
    expect(request).toMatchObject({
      path: '/v1/messages',
      model: 'scripted-model',
      stream: false,
      system: 'Be nice.',
      messages: [{ role: 'user', content: 'Hi there' }],
      lastUserText: 'Hi there',
      anthropicVersion: '2023-06-01',
      outcome: 'reply',
    });
    expect(request?.maxTokens).toBeGreaterThan(0);
    expect(request?.headers['x-api-key']).toBe('test-key');
  });

  it('stream delivers the reply in several chunks, and the usage', async () => {
    server.enqueue(reply('The quick brown fox jumps', { usage: { promptTokens: 9, completionTokens: 5 } }));
    const chunks = await collect(await model().stream([new HumanMessage('Tell me')]));
    const texts = chunks.map((chunk) => chunk.content).filter((text) => text !== '');
    expect(texts).toEqual(['The', ' quick', ' brown', ' fox', ' jumps']);
    const whole = merge(chunks);
    expect(whole.content).toBe('The quick brown fox jumps');
    // input_tokens from message_start, output_tokens from message_delta: their sum is exact.
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 9, output_tokens: 5, total_tokens: 14 });
    expect(whole.additional_kwargs).toMatchObject({ stop_reason: 'end_turn' });
    expect(server.messages[0]).toMatchObject({ stream: true, outcome: 'reply' });
  });

  it('reports deterministic usage when the step gives none', async () => {
    server.enqueue(reply('two words'));
    const answer = await model().invoke([new SystemMessage('Be brief.'), new HumanMessage('count these four words')]);
    expect(answer.usage_metadata).toMatchObject({ input_tokens: 6, output_tokens: 2, total_tokens: 8 });
  });

  it('bindTools: a tool_use answer comes back as tool_calls, and the tool result goes back', async () => {
    server.enqueue(toolCall('get_weather', { city: 'Paris' }, { id: 'toolu_w1' }), reply('It is sunny in Paris.'));
    const bound = model().bindTools([weather]);
    const question = new HumanMessage('Weather in Paris?');
    const first = await bound.invoke([question]);
    expect(first.tool_calls).toEqual([{ name: 'get_weather', args: { city: 'Paris' }, id: 'toolu_w1', type: 'tool_call' }]);
    expect(first.response_metadata).toMatchObject({ stop_reason: 'tool_use' });

    const call = first.tool_calls?.[0];
    const result = new ToolMessage({ content: `Sunny in ${String(call?.args['city'])}`, tool_call_id: call?.id ?? '' });
    const second = await bound.invoke([question, first, result]);
    expect(second.content).toBe('It is sunny in Paris.');

    const [toolRequest, followUp] = server.messages;
    expect(toolRequest?.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather of a city',
        input_schema: expect.objectContaining({ properties: { city: { type: 'string' } } }),
      },
    ]);
    expect(followUp?.transcript).toEqual([
      { role: 'user', text: 'Weather in Paris?' },
      { role: 'assistant', text: '', toolUses: [{ id: 'toolu_w1', name: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'user', text: '', toolResults: [{ toolUseId: 'toolu_w1', text: 'Sunny in Paris' }] },
    ]);
    expect(followUp?.lastUserText).toBe('Weather in Paris?');
  });

  it('streamed tool calls merge into tool_calls', async () => {
    server.enqueue(
      toolCalls(
        [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
        { usage: { promptTokens: 3, completionTokens: 8 } },
      ),
    );
    const chunks = await collect(await model().bindTools([weather]).stream([new HumanMessage('Two cities?')]));
    expect(chunks.length).toBeGreaterThan(3);
    const whole = merge(chunks);
    expect(whole.tool_calls).toEqual([
      { name: 'get_weather', args: { city: 'Paris' }, id: 'toolu_1_1', type: 'tool_call' },
      { name: 'get_weather', args: { city: 'Oslo' }, id: 'toolu_1_2', type: 'tool_call' },
    ]);
    expect(whole.usage_metadata).toMatchObject({ input_tokens: 3, output_tokens: 8, total_tokens: 11 });
  });

  it('429 rejects with status 429 and the retry-after header', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 7 }));
    const error = await rejection(model().invoke('hi'));
    expect(error.constructor.name).toBe('RateLimitError');
    expect(error.status).toBe(429);
    // The SDK keeps the response headers as a fetch Headers object.
    expect((error.headers as Headers).get('retry-after')).toBe('7');
    expect(error.requestID).toBe('req_scripted_1');
    expect(error.lc_error_code).toBe('MODEL_RATE_LIMIT');
    // LangChain read the header as a hint.
    expect(error.retryAfterMs).toBe(7_000);
    expect(error.type).toBe('rate_limit_error');
    // The SDK's message is the status and the whole body.
    expect(error.message).toMatch(/^429 \{"type":"error","error":\{"type":"rate_limit_error"/);
  });

  it('a wrong API key rejects with 401, using no step', async () => {
    server.enqueue(reply('not for you'));
    const error = await rejection(model({ apiKey: 'wrong-key' }).invoke('hi'));
    expect(error.constructor.name).toBe('AuthenticationError');
    expect(error.status).toBe(401);
    expect(error.type).toBe('authentication_error');
    expect(error.lc_error_code).toBe('MODEL_AUTHENTICATION');
    expect(error.message).toContain('invalid x-api-key');
    expect(server.messages[0]).toMatchObject({ outcome: 'error 401', headers: { 'x-api-key': 'wrong-key' } });
    expect(server.remaining).toBe(1);
  });

  it('529 rejects as overloaded; a prompt too long as a context overflow', async () => {
    server.enqueue(httpError(529), httpError(400, { code: 'context_length_exceeded' }));
    // stream() itself rejects: LangChain waits for the first chunk before returning the stream.
    const overloaded = await rejection(model().stream('hi'));
    expect(overloaded.constructor.name).toBe('InternalServerError');
    expect(overloaded).toMatchObject({ status: 529, type: 'overloaded_error' });
    const tooLong = await rejection(model().invoke('a long prompt'));
    expect(tooLong.name).toBe('ContextOverflowError');
  });

  it('a dropped connection rejects: before the response, and mid-stream after the partial text', async () => {
    server.enqueue(dropConnection(), dropConnection('mid-stream', { partialText: 'Partial ans' }));
    const before = await rejection(model().invoke('hi'));
    expect(before.constructor.name).toBe('APIConnectionError');
    expect(before.status).toBeUndefined();
    expect(before.message).toBe('Connection error.');
    const received: string[] = [];
    const stream = await model().stream('hi');
    const midStream = await rejection(
      (async () => {
        for await (const chunk of stream) received.push(String(chunk.content));
      })(),
    );
    expect(received.join('')).toBe('Partial ans');
    // undici's error for a body cut off; the SDK passes it through.
    expect(midStream).toMatchObject({ name: 'TypeError', message: 'terminated' });
    expect(server.messages.map((request) => request.outcome)).toEqual(['dropped before-response', 'dropped mid-stream']);
  });
});
