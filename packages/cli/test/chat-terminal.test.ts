import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AutoApproveInterviewer } from '@orchestra/core';
import { InteractiveSession, ProjectWorkspace, RunLauncher } from '@orchestra/chat';
import { ChatCompletionsOpenAI } from '@orchestra/llm';
import { fixturePath, reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { ChatTerminal } from '../src/chat/chat-terminal.js';
import { REPLAY_CLIP, clip, replayLines } from '../src/chat/conversation-replay.js';
import { painter } from '../src/render/colour.js';

/** The chat terminal in-process: a real session on the scripted model, its output captured. */

let model: ScriptedOpenAIServer;
const launchers: RunLauncher[] = [];
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  for (const l of launchers.splice(0)) await l.close();
  await model.close();
});

function open(workspace: ProjectWorkspace, resume: boolean) {
  const launcher = new RunLauncher({ projectDir: workspace.dir, simulate: true, checkpointIntervalMs: 0 });
  launchers.push(launcher);
  const chatModel = new ChatCompletionsOpenAI({ model: 'session-model', apiKey: 'k', configuration: { baseURL: model.url }, maxRetries: 0 });
  return InteractiveSession.open({ model: chatModel, launcher, workspace, interviewer: new AutoApproveInterviewer() }, resume);
}

function terminal(session: InteractiveSession, workspace: ProjectWorkspace) {
  let out = '';
  const t = new ChatTerminal(session, undefined, { io: { stdout: (s) => (out += s), stderr: () => {} }, paint: painter(false), tty: false, project: workspace.dir });
  return { t, output: () => out };
}

describe('orchestra chat --resume shows the conversation so far', { timeout: 30_000 }, () => {
  it('the last six messages, person and agent set apart, long ones clipped, control characters escaped, and how many earlier ones are not shown', async () => {
    const workspace = new ProjectWorkspace(mkdtempSync(join(tmpdir(), 'orchestra-chat-terminal-'))).ensure();
    writeFileSync(join(workspace.dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
    const long = `${'word '.repeat(100)}END`;
    model.enqueue(
      reply('Hello.'),
      toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }),
      reply('Shipped.'),
      reply('line 1\nline 2\nline 3\nline 4\nline 5\nline 6'),
      reply('\u001b]0;pwned\u0007done'),
      reply('Bye.'),
    );
    const first = open(workspace, false);
    for (const message of ['hi', 'review it', long, 'paint it \u001b[31mred\u001b[0m', 'thanks']) await first.send(message);
    first.save();

    const resumed = open(workspace, true);
    const { t, output } = terminal(resumed, workspace);
    t.showConversation();
    expect(output()).toBe(
      [
        '  (the conversation so far; 4 earlier messages not shown)',
        `you › ${'word '.repeat(REPLAY_CLIP.chars / 5).trimEnd()} …`,
        'orchestra › line 1\nline 2\nline 3\nline 4 …',
        'you › paint it \\e[31mred\\e[0m',
        'orchestra › \\e]0;pwned\\x07done',
        'you › thanks',
        'orchestra › Bye.',
        '',
      ].join('\n'),
    );
    // Showing it made no model call: the conversation came from the file.
    expect(model.completions).toHaveLength(6);
  });

  it('shows every message of a short conversation, and nothing for an empty one', () => {
    const paint = painter(false);
    expect(replayLines([], { paint })).toEqual([]);
    expect(replayLines([{ who: 'person', text: 'hi' }, { who: 'agent', text: 'Hello.' }], { paint })).toEqual(['  (the conversation so far)', 'you › hi', 'orchestra › Hello.']);
    expect(replayLines([{ who: 'person', text: 'a' }, { who: 'agent', text: 'b' }, { who: 'person', text: 'c' }], { paint, last: 2 })).toEqual(['  (the conversation so far; 1 earlier message not shown)', 'orchestra › b', 'you › c']);
  });

  it('clips by characters without splitting a character, and leaves short text as it is', () => {
    expect(clip('  short  ')).toBe('short');
    const emoji = '😀'.repeat(REPLAY_CLIP.chars + 5);
    expect(clip(emoji)).toBe(`${'😀'.repeat(REPLAY_CLIP.chars)} …`);
  });
});

describe('piped chat keeps its output in order', { timeout: 30_000 }, () => {
  it('/runs prints its list before the next message is echoed and answered', async () => {
    const workspace = new ProjectWorkspace(mkdtempSync(join(tmpdir(), 'orchestra-chat-terminal-'))).ensure();
    writeFileSync(join(workspace.dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }), reply('Shipped.'), reply('You are welcome.'));
    const session = open(workspace, false);
    const { t, output } = terminal(session, workspace);
    for (const line of ['review it', '/runs', 'thanks']) t.line(line);
    t.end();
    await t.done;
    const lines = output().trimEnd().split("\n");
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    expect(at(/^orchestra › Shipped\.$/)).toBeGreaterThan(-1);
    // The list (a card per run, then the tokens line) comes after the reply it followed, and before the next message.
    expect(at(/^ {2}✓ run \S+: Review · review\.dot · completed/)).toBeGreaterThan(at(/^orchestra › Shipped\.$/));
    expect(at(/^ {2}session agent: [\d,]+ tokens; runs: 0 tokens$/)).toBe(at(/^ {2}✓ run /) + 1);
    expect(at(/^you › thanks$/)).toBe(at(/^ {2}session agent: /) + 1);
    expect(lines.at(-1)).toBe('orchestra › You are welcome.');
  });
});
