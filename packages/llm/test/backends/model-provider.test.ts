import { FakeListChatModel } from '@langchain/core/utils/testing';
import { RunnableBinding } from '@langchain/core/runnables';
import { tool } from '@langchain/core/tools';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { modelProvider, setModelProvider } from '../../src/backends/model-provider.js';

const lookUp = tool(async () => 'found', { name: 'look_up', description: 'looks it up', schema: z.object({ q: z.string() }) });

describe('modelProvider: the API a model call went through (llm.response provider)', () => {
  it('is what the model backend recorded, on the model and on what binds it', () => {
    const model = new ChatOpenAI({ model: 'm', apiKey: 'k' });
    setModelProvider(model, 'ollama'); // an Ollama server spoken to through its OpenAI-compatible API, say
    expect(modelProvider(model)).toBe('ollama');
    expect(modelProvider(new RunnableBinding({ bound: model, kwargs: {}, config: {} }))).toBe('ollama');
  });

  it("else LangChain's own name for it, which survives bindTools (a new instance): Gemini's as orchestra names it", () => {
    expect(modelProvider(new ChatOpenAI({ model: 'm', apiKey: 'k' }).bindTools([lookUp]))).toBe('openai');
    expect(modelProvider(new ChatAnthropic({ model: 'm', apiKey: 'k' }).bindTools([lookUp]))).toBe('anthropic');
    expect(modelProvider(new ChatGoogleGenerativeAI({ model: 'm', apiKey: 'k' }).bindTools([lookUp]))).toBe('gemini');
  });

  it("else the reply's model_provider; none when nothing says", () => {
    const fake = new FakeListChatModel({ responses: ['hi'] });
    expect(modelProvider(fake)).toBeUndefined(); // LangChain names it by its class: not a provider
    expect(modelProvider(fake, { model_provider: 'somebody' })).toBeUndefined();
    expect(modelProvider(fake, { model_provider: 'google-genai' })).toBe('gemini');
    expect(modelProvider(fake, { model_provider: 'anthropic' })).toBe('anthropic');
  });
});
