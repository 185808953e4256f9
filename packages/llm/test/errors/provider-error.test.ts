import { createServer } from 'node:net';
import { HumanMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { dropConnection, httpError, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { isRetryableError, retryAfterOf } from '@orchestra/core/handlers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmProviderError, describeProviderError, retryAfterFrom, type ProviderTarget } from '../../src/errors/provider-error.js';

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'right-key' });
});

afterEach(async () => {
  await server.close();
});

function target(overrides: Partial<ProviderTarget> = {}): ProviderTarget {
  return { provider: 'local', baseUrl: server.url, model: 'm-1', apiKeyEnv: 'LOCAL_KEY', hasKey: true, modelSource: '--model flag', baseUrlSource: 'orchestra.yaml:3:14 providers.local.base_url', ...overrides };
}

/** What the real client throws for one scripted answer, as orchestra describes it. */
async function failWith(key = 'right-key', baseUrl = server.url): Promise<LlmProviderError> {
  const model = new ChatOpenAI({ model: 'm-1', apiKey: key, maxRetries: 0, streamUsage: true, configuration: { baseURL: baseUrl } });
  try {
    for await (const chunk of await model.stream([new HumanMessage('hi')])) void chunk;
  } catch (error) {
    const described = describeProviderError(error, target({ baseUrl }));
    expect(described).toBeInstanceOf(LlmProviderError);
    const e = described as LlmProviderError;
    expect(e.message, 'one line').not.toContain('\n');
    return e;
  }
  throw new Error('the call did not fail');
}

describe('provider errors from the real ChatOpenAI client', () => {
  it('401: not retryable, names the provider, URL and key variable', async () => {
    const e = await failWith('wrong-key');
    expect(e.code).toBe('ORCH_LLM_AUTH');
    expect(e.retryable).toBe(false);
    expect(isRetryableError(e)).toBe(false);
    expect(e.message).toMatch(new RegExp(`^provider local \\(${server.url.replace(/[.]/g, '\\.')}\\) refused the API key \\(HTTP 401: .*\\): check the key in LOCAL_KEY$`));
  });

  it('404: says the model name is unknown and where the name came from', async () => {
    server.enqueue(httpError(404, { message: 'The model `m-1` does not exist', code: 'model_not_found' }));
    const e = await failWith();
    expect(e.code).toBe('ORCH_LLM_MODEL_NOT_FOUND');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('does not know model "m-1"');
    expect(e.message).toContain('the name comes from --model flag');
  });

  it('400 context length: not retryable, suggests a lower fidelity', async () => {
    server.enqueue(httpError(400, { message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' }));
    const e = await failWith();
    expect(e.code).toBe('ORCH_LLM_CONTEXT_LENGTH');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('fidelity="compact"');
  });

  it('other 400: not retryable, quotes the provider', async () => {
    server.enqueue(httpError(400, { message: 'temperature must be at most 2' }));
    const e = await failWith();
    expect(e.code).toBe('ORCH_LLM_BAD_REQUEST');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('temperature must be at most 2');
  });

  it('429 with Retry-After: retryable, and the wait reaches the engine', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 3 }));
    const e = await failWith();
    expect(e.code).toBe('ORCH_LLM_RATE_LIMIT');
    expect(isRetryableError(e)).toBe(true);
    expect(e.retryAfterMs).toBe(3000);
    expect(retryAfterOf(e)).toBe(3000);
  });

  it('500 and 503: retryable', async () => {
    server.enqueue(httpError(500), httpError(503));
    expect((await failWith()).code).toBe('ORCH_LLM_SERVER');
    const e = await failWith();
    expect(e.retryable).toBe(true);
    expect(e.message).toContain('HTTP 503');
  });

  it('a dropped connection, before the reply or in the middle of it: retryable', async () => {
    server.enqueue(dropConnection('before-response'), reply('a long answer that will be cut', { chunks: 4 }));
    const before = await failWith();
    expect(before.code).toBe('ORCH_LLM_UNREACHABLE');
    expect(before.retryable).toBe(true);
    server.reset();
    server.enqueue(dropConnection('mid-stream', { partialText: 'half' }));
    const middle = await failWith();
    expect(middle.retryable).toBe(true);
    expect(middle.message).toContain('was closed before the reply was complete');
  });

  it('an unreachable URL: retryable, says where the URL came from', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const e = await failWith('right-key', `http://127.0.0.1:${port}/v1`);
    expect(e.code).toBe('ORCH_LLM_UNREACHABLE');
    expect(e.retryable).toBe(true);
    expect(e.message).toBe(`cannot reach provider local (http://127.0.0.1:${port}/v1): connection refused; the URL comes from orchestra.yaml:3:14 providers.local.base_url`);
  });
});

describe('retryAfterFrom', () => {
  it('reads retry-after-ms, retry-after seconds and HTTP dates', () => {
    const withHeaders = (h: Record<string, string>) => ({ status: 429, headers: new Headers(h) });
    expect(retryAfterFrom(withHeaders({ 'retry-after-ms': '1500' }))).toBe(1500);
    expect(retryAfterFrom(withHeaders({ 'retry-after': '2' }))).toBe(2000);
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(retryAfterFrom(withHeaders({ 'retry-after': 'Mon, 23 Nov 2026 10:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterFrom({ status: 429, headers: { 'retry-after': '4' } })).toBe(4000);
    expect(retryAfterFrom(withHeaders({}))).toBeUndefined();
  });

  it('leaves errors that are not provider failures alone', () => {
    const bug = new TypeError('x is not a function');
    expect(describeProviderError(bug, target())).toBe(bug);
    const abort = Object.assign(new Error('aborted'), { name: 'AbortError' });
    expect(describeProviderError(abort, target())).toBe(abort);
  });
});
