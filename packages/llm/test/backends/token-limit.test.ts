import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI } from '@langchain/openai';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { reply, startScriptedAnthropicServer, startScriptedOpenAIServer, toolCalls, type ScriptedAnthropicServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgentBackend } from '../../src/backends/agent-backend.js';
import { CUT_OFF_CALL_RESULT } from '../../src/backends/token-limit.js';
import { dot, eventsOf, runWith, tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let openai: ScriptedOpenAIServer;
let anthropic: ScriptedAnthropicServer;
beforeEach(async () => {
  openai = await startScriptedOpenAIServer({ apiKey: 'k' });
  anthropic = await startScriptedAnthropicServer({ apiKey: 'k' });
});
afterEach(async () => {
  await openai.close();
  await anthropic.close();
});

const clients: [string, () => BaseChatModel, () => ScriptedOpenAIServer | ScriptedAnthropicServer][] = [
  ['OpenAI (finish_reason length)', () => new ChatOpenAI({ model: 'm', apiKey: 'k', maxRetries: 0, streamUsage: true, configuration: { baseURL: openai.url } }), () => openai],
  ['Anthropic (stop_reason max_tokens)', () => new ChatAnthropic({ model: 'claude-m', apiKey: 'k', maxRetries: 0, anthropicApiUrl: anthropic.url }), () => anthropic],
];

describe.each(clients)('a reply cut off at the output token limit: %s', (_name, model, server) => {
  it('runs the complete calls before the cut one, never the cut one, and tells the model', async () => {
    const workspace = tempDir();
    server().enqueue(
      toolCalls(
        [
          { name: 'write_file', arguments: { path: 'whole.txt', content: 'all of it' } },
          // The text of the second call's arguments stops mid-string, as a cut reply's does.
          { name: 'write_file', arguments: '{"path":"cut.txt","content":"the first half of a long fi' },
        ],
        { finishReason: 'length' },
      ),
      reply('I will write it in parts.'),
    );
    const { result, events } = await runWith(dot('  code [prompt="Write", agent.backend="agent"]\n  start -> code -> exit'), createAgentBackend({ model: model(), workspace }));
    expect(result.status).toBe('success');
    expect(readFileSync(join(workspace, 'whole.txt'), 'utf8')).toBe('all of it');
    expect(existsSync(join(workspace, 'cut.txt'))).toBe(false);
    expect(eventsOf(events, 'agent.tool_call').map((e) => `${e.detail}:${e.status}`)).toEqual(['whole.txt:ok', 'cut.txt:refused']);
    const s = server();
    const sent = JSON.stringify('completions' in s ? s.completions.at(-1)?.messages : s.messages.at(-1));
    expect(sent).toContain(CUT_OFF_CALL_RESULT.slice(0, 60));
  });
});
