import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NETWORK_GUARD, reply, startScriptedAnthropicServer, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { BIN, ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cli, cliSession, cliWith, type CliSession } from './in-process.js';
import { spawn } from 'node:child_process';

/** `orchestra chat` as a script drives it: piped input, the scripted OpenAI-compatible server as the model. */

let model: ScriptedOpenAIServer;
beforeEach(async () => {
  model = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});
/** Chat processes the tests started: stopped after each test even when an assertion failed first. */
const started: ReturnType<typeof spawn>[] = [];
/** Chats running in this process: their input ended after each test, so they end too. */
const sessions: CliSession[] = [];
afterEach(async () => {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const session of sessions.splice(0)) {
    session.end();
    await session.done.catch(() => {});
  }
  await model.close();
});

function project(): string {
  const dir = join(tempDir(), 'project');
  mkdirSync(dir);
  writeFileSync(join(dir, 'review.dot'), readFileSync(join(ROOT, 'fixtures', 'human-gate.dot'), 'utf8'));
  return dir;
}

/** The environment of the chat tests: a key for the scripted model, nothing else configured. */
function chatEnv(): NodeJS.ProcessEnv {
  return modelFreeEnv({ OPENAI_API_KEY: 'test-key' });
}

function chat(dir: string, input: string, ...flags: string[]) {
  return cliWith(['chat', '--project', dir, '--model', 'scripted-model', '--base-url', model.url, ...flags], { env: chatEnv(), input });
}

/** `orchestra chat --simulate` on `dir` in a process with stdin left open, for tests that signal it or kill it. */
function liveChat(dir: string) {
  const env = modelFreeEnv({ OPENAI_API_KEY: 'test-key', NODE_OPTIONS: `--import=${NETWORK_GUARD}` });
  const child = spawn(process.execPath, [BIN, 'chat', '--project', dir, '--model', 'scripted-model', '--base-url', model.url, '--simulate'], { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  started.push(child);
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  /** Waits until the output shows `text` (fails after 10 s). */
  const until = async (text: string) => {
    for (let i = 0; i < 400 && !out.includes(text); i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(out).toContain(text);
  };
  return { child, exited, until, output: () => out };
}

describe('orchestra chat', { timeout: 30_000 }, () => {
  it('--auto-approve with piped input launches a run of a project pipeline and prints the agent\'s summary', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review the change', pipeline: 'review.dot' }), reply('The review ran and the change shipped.'));
    const dir = project();
    const result = await chat(dir, 'Please review the change\n', '--auto-approve', '--simulate');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe('you › Please review the change');
    expect(lines[1]).toMatch(/^▶ run (\S+): Review the change · review\.dot · running \(\/cancel stops it\)$/);
    expect(lines[2]).toMatch(/^✓ run \S+: Review the change · review\.dot · completed · .* · 4 nodes$/);
    expect(lines[3]).toBe('orchestra › The review ran and the change shipped.');
    const [id] = readdirSync(join(dir, 'runs'));
    expect(JSON.parse(readFileSync(join(dir, 'runs', id as string, 'run_description.json'), 'utf8'))).toMatchObject({ task: 'Review the change', pipeline: 'review.dot' });
    for (const file of ['CONTEXT.md', 'filepaths.json', 'deliverables', '.orchestra/session.json']) expect(existsSync(join(dir, file)), file).toBe(true);
    // The agent saw the run's result.
    expect(String(model.completions[1]?.messages?.at(-1)?.content)).toContain('"status":"completed"');
  });

  it('asks for approval and the run\'s questions on the next lines, labelled with the run; /runs lists the runs', async () => {
    model.enqueue(reply('Hello!'), toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }), reply('Shipped.'));
    const dir = project();
    const result = await chat(dir, 'hi\nreview it\nA\nA\n/runs\n', '--simulate');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toContain('orchestra › Hello!\nyou › review it\n? Launch this run?\nRun: Review\n  pipeline: review.dot\n  [A] Approve  [E] Edit  [C] Cancel\nyou › A\n');
    expect(out).toMatch(/\? \[run \S+\] Review Changes\n {2}\[A\] Approve {2}\[F\] Fix\nyou › A\n/);
    expect(out).toMatch(/orchestra › Shipped\.\n {2}✓ run \S+: Review · review\.dot · completed/);
  });

  it('a cancelled approval launches nothing, and --resume continues the saved conversation', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Big job' }));
    const dir = project();
    const first = await chat(dir, 'do the big job\nC\n', '--simulate');
    expect(first.code).toBe(0);
    expect(existsSync(join(dir, 'runs')) ? readdirSync(join(dir, 'runs')) : []).toEqual([]);
    model.enqueue(reply('Understood, nothing was launched.'));
    const second = await chat(dir, 'why not?\n', '--simulate', '--resume');
    expect(second.code).toBe(0);
    // The conversation so far comes first (the cancelled proposal was a tool call: no text to show).
    expect(second.stdout).toBe('  (the conversation so far)\nyou › do the big job\nyou › why not?\norchestra › Understood, nothing was launched.\n');
    // The resumed session sent the whole conversation: no model call was repeated.
    const messages = model.completions[1]?.messages ?? [];
    expect(messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['do the big job', 'why not?']);
    expect(messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['The person cancelled this run. Nothing was launched.']);
    expect(model.completions).toHaveLength(2);
  });

  it('bad flags and a project that is a file are refused', async () => {
    expect((await cliWith(['chat', '--auto-approve', '--answers', 'a.json'])).code).toBe(2);
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    const notDir = await cliWith(['chat', '--project', file]);
    expect(notDir.code).toBe(2);
    expect(notDir.stderr).toContain('--project');
    expect((await cliWith(['chat', '--backend', 'agent'])).stderr).toContain('add --allow-tools');
  });

  it('Ctrl-C cancels the active run, not the session: the agent gets the partial results and the chat goes on', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }), reply('Stopped before the review.'), reply('Still here.'));
    const dir = project();
    const { child, exited, until, output } = liveChat(dir);
    child.stdin.write('review it\n');
    await until('[C] Cancel');
    child.stdin.write('A\n');
    await until('Review Changes');
    child.kill('SIGINT');
    await until('orchestra › Stopped before the review.');
    expect(output()).toMatch(/■ run \S+: Review · review\.dot · cancelled/);
    child.stdin.write('are you there?\n');
    await until('orchestra › Still here.');
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(JSON.parse(String(model.completions[1]?.messages?.at(-1)?.content))).toMatchObject({ status: 'cancelled', completed_nodes: ['start'] });
  });

  it('--resume after a kill while a run waits at its gate: the gate is asked again on the next line and the run finishes', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }));
    const dir = project();
    const { child, exited, until } = liveChat(dir);
    child.stdin.write('review it\nA\n');
    await until('Review Changes');
    child.kill('SIGKILL');
    await exited;

    model.enqueue(reply('Shipped after the resume.'));
    const resumed = await chat(dir, 'A\n/runs\n', '--simulate', '--resume');
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/\? \[run \S+\] Review Changes\n {2}\[A\] Approve {2}\[F\] Fix\nyou › A\n/);
    expect(resumed.stdout).toContain('orchestra › Shipped after the resume.');
    expect(resumed.stdout).toMatch(/✓ run \S+: Review · review\.dot · completed · .* · 4 nodes/);
    expect(resumed.stdout).toMatch(/session agent: [\d,]+ tokens; runs: 0 tokens/);
    expect(model.completions).toHaveLength(2);
  });

  it('a new session keeps the saved one aside instead of replacing it', async () => {
    model.enqueue(reply('One.'), reply('Two.'));
    const dir = project();
    expect((await chat(dir, 'first\n')).code).toBe(0);
    const second = await chat(dir, 'second\n');
    expect(second.stderr).toMatch(/the previous session was kept as .*session-.*\.json \(--resume continues a session\)/);
    expect(readdirSync(join(dir, '.orchestra')).filter((f) => f.startsWith('session-'))).toHaveLength(1);
  });

  it('/quit while a run waits at its gate: the run parks, and --resume asks its question again and finishes it', async () => {
    model.enqueue(toolCall('launch_run', { task: 'Review', pipeline: 'review.dot' }));
    const dir = project();
    const session = cliSession(['chat', '--project', dir, '--model', 'scripted-model', '--base-url', model.url, '--simulate'], { env: chatEnv() });
    sessions.push(session);
    session.write('review it\nA\n');
    await session.waitFor('Review Changes', 'stdout');
    session.write('/quit\n');
    expect((await session.done).code).toBe(0);
    const [id] = readdirSync(join(dir, 'runs'));
    const status = await cli('status', join(dir, 'runs', id as string), '--json');
    expect(JSON.parse(status.stdout)).toMatchObject({ state: 'parked' });
    expect(JSON.parse(readFileSync(join(dir, '.orchestra', 'session.json'), 'utf8'))).toMatchObject({ state: 'RUNNING', active: { run: id } });

    model.enqueue(reply('Shipped.'));
    const resumed = await chat(dir, 'A\n', '--simulate', '--resume');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/\? \[run \S+\] Review Changes/);
    expect(resumed.stdout).toContain('orchestra › Shipped.');
    expect(model.completions).toHaveLength(2);
  });

  describe('models: the agents a launch_run names, --model and chat.model', () => {
    /** A project whose orchestra.yaml has the aliases fast and smart (and more lines). */
    function aliasProject(more = ''): string {
      const dir = project();
      writeFileSync(join(dir, 'orchestra.yaml'), `models:\n  fast: { model: fast-id }\n  smart: { model: smart-id }\n  talker: { model: talker-id }\n${more}`);
      return dir;
    }

    /** The session agent (the requests with tools) launches `args`, then sums up; run stages answer with their model's name. */
    function scriptSession(args: Record<string, unknown>) {
      let launched = false;
      model.respondWith((request) => {
        if (request.tools?.length) {
          if (launched) return reply('Done.');
          launched = true;
          return toolCall('launch_run', args);
        }
        return reply(`answer from ${request.model ?? '?'}`);
      });
    }

    const stageModels = () => model.completions.filter((r) => !r.tools?.length).map((r) => r.model);
    const sessionModels = () => [...new Set(model.completions.filter((r) => r.tools?.length).map((r) => r.model))];

    it('--model does not override the agents a launch_run names: each branch runs on its own model; --model fills in the stages that name none', async () => {
      scriptSession({ task: 'Compare', agent_mode: 'multi', agents: ['fast', 'smart'] });
      const dir = aliasProject();
      const result = await chat(dir, 'compare them\n', '--auto-approve', '--model', 'fast');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('orchestra › Done.');
      // One branch on each agent's model (the stages after them on the first agent's).
      expect(stageModels().filter((m) => m === 'smart-id')).toHaveLength(1);
      expect(new Set(stageModels())).toEqual(new Set(['fast-id', 'smart-id']));
      expect(sessionModels()).toEqual(['fast-id']);
    });

    it('chat.model in orchestra.yaml is the session agent\'s model; the runs keep --model', async () => {
      scriptSession({ task: 'Write it' });
      const dir = aliasProject('chat:\n  model: talker\n');
      const result = await chat(dir, 'write it\n', '--auto-approve', '--model', 'fast');
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(sessionModels()).toEqual(['talker-id']);
      expect(stageModels()).toEqual(['fast-id']);
    });

    it('chat.model may name a Claude model: the session agent talks to Anthropic through its own client', async () => {
      const anthropic = await startScriptedAnthropicServer({ apiKey: 'ant-key' });
      try {
        anthropic.respondWith(() => reply('Hello from Claude.'));
        const dir = aliasProject('chat:\n  model: claude-talker\n');
        const result = await cliWith(['chat', '--project', dir, '--model', 'fast'], {
          env: modelFreeEnv({ OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: model.url, ANTHROPIC_API_KEY: 'ant-key', ANTHROPIC_BASE_URL: anthropic.url }),
          input: 'hi\n',
        });
        expect(result.stderr).toBe('');
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('orchestra › Hello from Claude.');
        expect(anthropic.messages.map((r) => r.model)).toEqual(['claude-talker']);
        expect(model.completions).toHaveLength(0);
      } finally {
        await anthropic.close();
      }
    });

    it('a misspelt key under chat: is refused with a suggestion', async () => {
      const dir = aliasProject('chat:\n  modle: talker\n');
      const result = await chat(dir, 'hi\n', '--model', 'fast');
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/chat\.modle: unknown key \(did you mean model\?\)/);
    });
  });
});

