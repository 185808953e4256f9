import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { httpError, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `orchestra run` in-process against the scripted OpenAI-compatible server: the real ChatOpenAI client, no network. */

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
});

afterEach(async () => {
  await server.close();
});

/** The environment of a user who set only OPENAI_BASE_URL and OPENAI_API_KEY. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', ...extra });
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const pipeline = join(ROOT, 'fixtures', 'plan-implement-review.dot');

describe('orchestra run with a model (black box)', () => {
  it('drives plan → implement → review through ChatOpenAI: files on disk, tokens in status.json and the summary', async () => {
    server.respondWith((request) => reply(`answer to: ${request.lastUserText}`, { usage: { promptTokens: 40, completionTokens: 10 } }));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--logs-dir', dir], { env: userEnv() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const node of ['plan', 'implement', 'review']) {
      for (const file of ['prompt.md', 'response.md', 'status.json']) expect(existsSync(join(dir, node, file)), `${node}/${file}`).toBe(true);
      expect(json(join(dir, node, 'status.json')).usage).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    }
    expect(readFileSync(join(dir, 'plan', 'response.md'), 'utf8')).toBe('answer to: Plan how to create a hello world script for: Create a hello world Python script');
    expect(result.stdout).toMatch(/✓ plan +\S+ +50 tokens/);
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out)');
    expect(json(join(dir, 'checkpoint.json')).token_usage).toEqual({ input_tokens: 120, output_tokens: 30, total_tokens: 150 });
    const status = await cliWith(['status', dir]);
    expect(status.stdout).toContain('  tokens: 150 (120 in, 30 out)\n');
    // Three streamed requests with the key, the model, and the stage's preamble and prompt.
    expect(server.completions).toHaveLength(3);
    for (const request of server.completions) {
      expect(request.model).toBe('scripted-model');
      expect(request.stream).toBe(true);
      expect(request.headers.authorization).toBe('Bearer test-key');
      expect(request.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    }
    expect(JSON.stringify(server.completions[1]?.messages?.[0])).toContain('- plan: success');
  });

  it('retries a 429 (after its Retry-After) and goes on', async () => {
    server.enqueue(httpError(429, { retryAfterSeconds: 1 }));
    server.respondWith(() => reply('fine'));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--logs-dir', dir], { env: userEnv() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('failed, will retry: provider openai');
    expect(result.stdout).toMatch(/retrying plan \(attempt 2\) in 1\.0s/);
    expect(server.completions.map((r) => r.outcome)).toEqual(['error 429', 'reply', 'reply', 'reply']);
    expect(json(join(dir, 'checkpoint.json')).node_retries).toMatchObject({ plan: 1 });
  });

  it('fails at once on a 401 with one line that names the provider, URL and key variable (exit 1, no stack)', async () => {
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--logs-dir', dir], { env: userEnv({ OPENAI_API_KEY: 'wrong-key' }) });
    expect(result.code).toBe(1);
    expect(server.completions).toHaveLength(1); // not retried, though the graph allows two retries
    const reason = result.stdout.split('\n').find((l) => l.startsWith('  reason: ')) ?? '';
    expect(reason).toMatch(new RegExp(`^  reason: plan failed: provider openai \\(${server.url.replace(/\./g, '\\.')}\\) refused the API key \\(HTTP 401: .+\\): check the key in OPENAI_API_KEY$`));
    expect(result.stdout + result.stderr).not.toMatch(/\n\s+at /);
  });

  it('without a key, a model or --simulate, says what to set before calling anything (exit 2)', async () => {
    const nothing = await cliWith(['run', pipeline, '--logs-dir', join(tempDir(), 'run')]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('set OPENAI_API_KEY (or OPENAI_BASE_URL for a local OpenAI-compatible server) and pass --model <name>');
    const noKey = await cliWith(['run', pipeline, '--model', 'gpt-4o-mini', '--logs-dir', join(tempDir(), 'run')]);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('node plan uses provider openai (https://api.openai.com/v1), which needs an API key: set the environment variable OPENAI_API_KEY');
    expect(noKey.stderr).toContain('or run with --simulate');
    expect(server.requests).toHaveLength(0);
  });

  it('a local server needs only OPENAI_BASE_URL (no key), and --base-url works for one run', async () => {
    const open = await startScriptedOpenAIServer({ responder: () => reply('ok') });
    try {
      const viaEnv = await cliWith(['run', pipeline, '--model', 'local-model', '--logs-dir', join(tempDir(), 'run'), '--quiet'], {
        env: modelFreeEnv({ OPENAI_BASE_URL: open.url }),
      });
      expect(viaEnv.code).toBe(0);
      const viaFlag = await cliWith(['run', pipeline, '--model', 'local-model', '--base-url', open.url, '--logs-dir', join(tempDir(), 'run'), '--quiet'], {
        env: modelFreeEnv(),
      });
      expect(viaFlag.code).toBe(0);
      expect(open.completions).toHaveLength(6);
    } finally {
      await open.close();
    }
  });

  it('resolves models from orchestra.yaml next to the pipeline: aliases, providers, key variables', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'pipeline.dot'), readFileSync(pipeline, 'utf8').replace('[shape=box, prompt="Review', '[shape=box, llm_model=cheap, prompt="Review'));
    writeFileSync(
      join(project, 'orchestra.yaml'),
      ['providers:', '  local:', `    base_url: ${server.url}`, '    api_key_env: LOCAL_KEY', 'models:', '  smart: { provider: local, model: big-model, temperature: 0.2 }', '  cheap: { provider: local, model: small-model }', 'defaults:', '  model: smart', ''].join('\n'),
    );
    server.respondWith(() => reply('done'));
    const result = await cliWith(['run', join(project, 'pipeline.dot'), '--logs-dir', join(project, 'run'), '--quiet'], {
      cwd: project,
      env: modelFreeEnv({ LOCAL_KEY: 'test-key' }),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.completions.map((r) => r.model)).toEqual(['big-model', 'big-model', 'small-model']);
    expect((server.completions[0]?.body as { temperature?: number }).temperature).toBe(0.2);
  });
});

describe('the CLI-agent backend (black box)', () => {
  it('--backend cli hands each stage to the configured command: a shell script stands in for the agent', async () => {
    const project = tempDir();
    const agent = join(project, 'agent.sh');
    writeFileSync(agent, '#!/bin/sh\nprompt=$(cat)\necho "did: $(printf "%s\\n" "$prompt" | tail -n 1)"\necho "working in $ORCHESTRA_NODE_ID" >&2\n');
    chmodSync(agent, 0o755);
    writeFileSync(join(project, 'orchestra.yaml'), `cli_agent:\n  command: [${agent}]\n  timeout: 10s\n`);
    const dir = join(project, 'run');
    const result = await cliWith(['run', pipeline, '--backend', 'cli', '--logs-dir', dir, '--quiet'], { cwd: project, env: modelFreeEnv() });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'implement', 'response.md'), 'utf8')).toBe('did: Write the code based on the plan');
    expect(readFileSync(join(dir, 'implement', 'agent-stderr.log'), 'utf8')).toBe('working in implement\n');
    expect(server.requests).toHaveLength(0);
  });
});

describe('orchestra.yaml settings for human questions and --json (black box)', () => {
  it('interviewer.auto_approve answers gates like --auto-approve; interviewer.timeout bounds console questions', async () => {
    const auto = tempDir();
    writeFileSync(join(auto, 'orchestra.yaml'), 'interviewer:\n  auto_approve: true\n');
    const approved = await cliWith(['run', join(ROOT, 'fixtures', 'human-gate.dot'), '--simulate', '--logs-dir', join(auto, 'run')], { cwd: auto });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('human: review_gate: Review Changes → [A] Approve');

    const timed = tempDir();
    writeFileSync(join(timed, 'orchestra.yaml'), 'interviewer:\n  timeout: 1s\n');
    // Standard input stays open: only the configured timeout ends the wait (the gate has no default, so it fails).
    const { code, stderr } = await cliWith(['run', join(ROOT, 'fixtures', 'human-gate.dot'), '--simulate', '--logs-dir', join(timed, 'run')], { cwd: timed, keepInputOpen: true });
    expect(stderr).toContain('(waiting up to 1s)');
    expect(code).toBe(1);
  }, 30_000);

  it('--json prints every recorded event but no streamed pieces', async () => {
    server.respondWith(() => reply('several streamed pieces of text', { chunks: 4 }));
    const dir = join(tempDir(), 'run');
    const result = await cliWith(['run', pipeline, '--model', 'scripted-model', '--json', '--logs-dir', dir], { env: userEnv() });
    expect(result.code).toBe(0);
    const types = result.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toContain('llm.response');
    expect(types).not.toContain('llm.delta');
    const logged = readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toEqual(logged);
  });
});

describe('orchestra.yaml errors (black box)', () => {
  async function runIn(yaml: string, env: Record<string, string> = {}) {
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), yaml);
    writeFileSync(join(project, 'p.dot'), readFileSync(pipeline, 'utf8'));
    const result = await cliWith(['run', join(project, 'p.dot'), '--logs-dir', join(project, 'run')], { cwd: project, env: modelFreeEnv(env) });
    return { ...result, file: join(project, 'orchestra.yaml') };
  }

  it('a wrong key path, a wrong type and a missing variable: one line naming the file, position and key (exit 2)', async () => {
    const typo = await runIn('defaults:\n  modle: x\n');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(`orchestra: ${typo.file}:2:3: defaults.modle: unknown key (did you mean model?)\n`);
    const type = await runIn('agent:\n  max_turns: lots\n');
    expect(type.code).toBe(2);
    expect(type.stderr).toBe(`orchestra: ${type.file}:2:14: agent.max_turns: expected an integer ≥ 1, got "lots"\n`);
    const missing = await runIn(`providers:\n  local:\n    base_url: ${server.url}\n    api_key_env: LOCAL_KEY\ndefaults:\n  model: m\n  provider: local\n`);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(new RegExp(`^orchestra: node plan uses provider local \\(.+\\), which needs an API key: set the environment variable LOCAL_KEY \\(providers\\.local\\.api_key_env at ${missing.file.replace(/[.]/g, '\\.')}:4:18\\) \\(or run with --simulate`));
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('orchestra.yaml and orchestra.yml side by side: refused with exit 2, also for a simulated run', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), 'defaults:\n  model: a\n');
    writeFileSync(join(project, 'orchestra.yml'), 'defaults:\n  model: b\n');
    writeFileSync(join(project, 'p.dot'), readFileSync(pipeline, 'utf8'));
    const result = await cliWith(['run', join(project, 'p.dot'), '--simulate', '--logs-dir', join(project, 'run')], { cwd: project });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^orchestra: .*orchestra\.yml:1:1: /);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('an unreachable URL: the stage fails after its retries with one line saying where the URL came from', async () => {
    const closed = await startScriptedOpenAIServer();
    const url = closed.url;
    await closed.close();
    const result = await runIn(`providers:\n  local:\n    base_url: ${url}\ndefaults:\n  model: m\n  provider: local\n`);
    expect(result.code).toBe(1);
    const reason = result.stdout.split('\n').find((l) => l.startsWith('  reason: ')) ?? '';
    expect(reason).toBe(`  reason: plan failed: cannot reach provider local (${url}): connection refused; the URL comes from ${result.file}:3:15 providers.local.base_url`);
  });
});
