import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { NETWORK_GUARD, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { converse, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliSession } from './in-process.js';

/** fixtures/interactive.dot on the chat backend (the real ChatOpenAI client against the scripted server). */

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
  // Every reply streams in several pieces, so the console shows it as it arrives.
  let n = 0;
  server.respondWith((request) => reply(`Reply ${++n}: about "${request.lastUserText?.slice(0, 30)}", in several streamed pieces`, { chunks: 6 }));
});

afterEach(async () => {
  await server.close();
});

/** Only OPENAI_BASE_URL and OPENAI_API_KEY set. */
function modelEnv(): NodeJS.ProcessEnv {
  return modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' });
}

/** An orchestra process with {@link modelEnv}, answered as its prompts appear (the test kills it). */
function converseWithModel(args: string[]) {
  return converse(args, { env: { ...modelEnv(), NODE_OPTIONS: `--import=${NETWORK_GUARD}` } });
}

describe('an interactive node on the chat backend (black box)', () => {
  it('sends the whole history each turn; killed at turn 2 and resumed, the server gets no request for turns already had', async () => {
    const dir = join(tempDir(), 'run');
    const first = converseWithModel(['run', 'fixtures/interactive.dot', '--model', 'chat-model', '--logs-dir', dir]);
    // The reply streams in, then the prompt for the human's answer follows.
    await first.waitFor('in several streamed pieces\n  (reply to the agent');
    first.child.stdin.write('make it bigger\n');
    await first.waitFor('[refine] agent, turn 2:');
    // The prompt follows the streamed reply once it is saved (the checkpoint is written before the question is asked).
    await first.waitFor('Reply 3: about "make it bigger", in several streamed pieces\n> ');
    expect(readCheckpoint(dir).node_progress).toMatchObject({ refine: { turns: [{ human: 'make it bigger' }], pending: expect.stringContaining('Reply 3') } });
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');

    // draft, turn 1, turn 2: each turn sent the whole conversation.
    expect(server.completions.map((r) => r.messages?.map((m) => m.role).join(','))).toEqual(['system,user', 'system,user', 'system,user,assistant,user']);
    expect(server.completions[2]?.messages?.slice(1).map((m) => m.content)).toEqual([
      expect.stringContaining('Discuss the outline with the human'),
      expect.stringContaining('Reply 2'),
      'make it bigger',
    ]);
    // Each streamed reply was shown once: the question did not print it again.
    const shown = first.output().stderr;
    expect(shown.split('Reply 2: about').length - 1).toBe(1);

    const before = server.completions.length;
    const second = cliSession(['resume', dir, '--model', 'chat-model'], { env: modelEnv() });
    await second.waitFor('resuming the conversation at turn 2: 1 earlier turn(s) restored without calling the model');
    await second.waitFor('Reply 3: about "make it bigger"');
    expect(server.completions.length).toBe(before); // restored, not asked again
    second.write('one more thing\n');
    await second.waitFor('[refine] agent, turn 3:');
    second.end('/done\n');
    const ended = await second.done;
    expect(ended.code).toBe(0);
    // Turn 3 carried the restored history; then publish ran.
    const turn3 = server.completions[before];
    expect(turn3?.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(turn3?.messages?.at(-1)?.content).toBe('one more thing');
    expect(server.completions.length).toBe(before + 2);
    expect(readFileSync(join(dir, 'refine', 'conversation.md'), 'utf8')).toContain('## Human (turn 2)\n\none more thing');
    expect(second.output().stdout).toMatch(/tokens: [\d,]+ \([\d,]+ in, [\d,]+ out\)/);
  }, 60_000);
});
