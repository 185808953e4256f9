import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { HumanMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { dropConnection, startScriptedGeminiServer, type ScriptedGeminiServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedModel } from '../../src/config/index.js';
import { createChatGemini } from '../../src/models/chat-gemini.js';

let server: ScriptedGeminiServer;
beforeEach(async () => {
  server = await startScriptedGeminiServer({ apiKey: 'k' });
});
afterEach(() => server.close());

/** Streams from `model` while the server cuts the stream after a first piece; the unhandled rejections seen meanwhile. */
async function brokenStream(model: BaseChatModel): Promise<{ thrown: string; unhandled: unknown[] }> {
  server.enqueue(dropConnection('mid-stream', { partialText: 'Hel' }));
  const unhandled: unknown[] = [];
  const listener = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', listener);
  let thrown = '';
  try {
    for await (const _chunk of await model.stream([new HumanMessage('hi')])) {
      // the first piece arrives, then the stream breaks
    }
  } catch (error) {
    thrown = (error as Error).message;
  }
  // The SDK's response promise rejects after the stream does: give it time to.
  await new Promise((resolve) => setTimeout(resolve, 200));
  process.off('unhandledRejection', listener);
  return { thrown, unhandled };
}

describe('a Gemini stream cut off mid-way', () => {
  it('LangChain’s client alone leaves the SDK’s response promise rejected with no handler (what the guard is for)', async () => {
    const bare = new ChatGoogleGenerativeAI({ model: 'gemini-x', apiKey: 'k', baseUrl: server.url, maxRetries: 0, streamUsage: true });
    const { thrown, unhandled } = await brokenStream(bare);
    expect(thrown).toMatch(/Error reading from the stream/);
    expect(unhandled).toHaveLength(1);
  });

  it('orchestra’s client reports the break through the stream only: no unhandled rejection (it would end the process)', async () => {
    const resolved = { model: 'gemini-x', provider: { name: 'gemini', kind: 'gemini', baseUrl: server.url, apiKey: 'k', headers: {} } } as unknown as ResolvedModel;
    const { thrown, unhandled } = await brokenStream(createChatGemini(resolved));
    expect(thrown).toMatch(/Error reading from the stream/);
    expect(unhandled).toEqual([]);
  });
});
