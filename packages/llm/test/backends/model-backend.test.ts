import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeModel } from '@langchain/core/testing';
import { AIMessage } from '@langchain/core/messages';
import { loadPipeline, runPipeline, type Graph } from '@orchestra/core';
import { CheckpointSchema, readCheckpoint } from '@orchestra/core/store';
import { readFixture, reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig, parseConfigText, combineConfigLayers, type ResolvedModel } from '../../src/config/index.js';
import { dot, runWith, tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});

afterEach(async () => {
  await server.close();
});

const env = () => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' });

describe('spec §11.13 integration smoke test, against the scripted server', () => {
  it('parses, validates, runs plan → implement → review on ChatOpenAI and checkpoints', async () => {
    const source = readFixture('plan-implement-review.dot');
    const loaded = loadPipeline(source, { file: 'plan-implement-review.dot' });
    // 1. Parse
    const graph = loaded.graph as Graph;
    expect(graph.attributes.goal).toBe('Create a hello world Python script');
    expect(graph.nodes.size).toBe(5);
    expect(graph.edges).toHaveLength(6);
    // 2. Validate
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    // 3. Execute with the LLM backend (the real client)
    server.respondWith((request) => reply(`done: ${request.lastUserText}`));
    const logsRoot = join(tempDir(), 'run');
    const backend = createModelBackend({ config: emptyConfig(tempDir()), env: env(), flags: { model: 'scripted-model' } });
    const result = await runPipeline(graph, { backend, logsRoot });
    // 4. Verify
    expect(result.status).toBe('success');
    expect(result.completedNodes).toContain('implement');
    for (const node of ['plan', 'implement', 'review']) {
      for (const file of ['prompt.md', 'response.md', 'status.json']) expect(readFileSync(join(logsRoot, node, file), 'utf8').length, `${node}/${file}`).toBeGreaterThan(0);
    }
    expect(readFileSync(join(logsRoot, 'implement', 'response.md'), 'utf8')).toBe('done: Write the code based on the plan');
    // 5. The goal gate is satisfied
    const checkpoint = readCheckpoint(logsRoot);
    expect(CheckpointSchema.safeParse(checkpoint).success).toBe(true);
    expect(checkpoint.node_outcomes.implement).toBe('success');
    // 6. The checkpoint
    expect(checkpoint.current_node).toBe('done');
    expect(checkpoint.completed_nodes).toEqual(expect.arrayContaining(['plan', 'implement', 'review']));
    expect(server.completions).toHaveLength(3);
  });
});

describe('createModelBackend', () => {
  function config(yaml: string) {
    return combineConfigLayers([parseConfigText(yaml, '/project/orchestra.yaml')], { cwd: tempDir() });
  }

  it('shares one client between stages that resolve alike, and builds one per distinct target', async () => {
    const built: ResolvedModel[] = [];
    const backend = createModelBackend({
      config: config('models:\n  a: { model: model-a }\n  b: { model: model-b }\n'),
      env: env(),
      createModel: (resolved) => {
        built.push(resolved);
        return fakeModel().respond(new AIMessage('1')).respond(new AIMessage('2')).respond(new AIMessage('3'));
      },
    });
    const { result } = await runWith(dot('  x [prompt="x", llm_model=a]\n  y [prompt="y", llm_model=b]\n  z [prompt="z", llm_model=a]\n  start -> x -> y -> z -> exit'), backend);
    expect(result.status).toBe('success');
    expect(built.map((r) => r.model)).toEqual(['model-a', 'model-b']);
  });

  it('refuses the run before any call when a stage cannot be resolved, naming what to set', async () => {
    const backend = createModelBackend({ config: emptyConfig(tempDir()), env: {} });
    await expect(runWith(dot('  x [prompt="x"]\n  start -> x -> exit'), backend)).rejects.toThrow(/node x has no model and no provider is configured: set OPENAI_API_KEY/);
    const cliWithoutCommand = createModelBackend({ config: emptyConfig(tempDir()), env: env(), flags: { backend: 'cli' } });
    await expect(runWith(dot('  x [prompt="x"]\n  start -> x -> exit'), cliWithoutCommand)).rejects.toThrow(/no CLI agent command is configured: set cli_agent.command in orchestra.yaml/);
    const badTools = createModelBackend({ config: emptyConfig(tempDir()), env: env(), flags: { model: 'm' } });
    await expect(runWith(dot('  x [prompt="x", agent.backend="agent", agent.tools="read_fil"]\n  start -> x -> exit'), badTools)).rejects.toThrow(/unknown tool "read_fil" \(did you mean read_file\?\)/);
    expect(server.requests).toHaveLength(0);
  });

  it('sends what the stage sets to any compatible server: chat completions whatever the model id, and the reasoning effort', async () => {
    server.respondWith(() => reply('ok'));
    const backend = createModelBackend({ config: config('models:\n  coder: { model: qwen2.5-codex, reasoning_effort: low, max_tokens: 99 }\n'), env: env() });
    const { result } = await runWith(dot('  x [prompt="x", llm_model=coder]\n  start -> x -> exit'), backend);
    expect(result.status).toBe('success');
    expect(server.completions).toHaveLength(1);
    expect(server.completions[0]?.path).toBe('/v1/chat/completions');
    expect(server.completions[0]?.body).toMatchObject({ model: 'qwen2.5-codex', reasoning_effort: 'low', max_tokens: 99 });
  });

  it('runs cli stages with the configured command (a shell script standing in for the agent)', async () => {
    const dir = tempDir();
    const agent = join(dir, 'agent.sh');
    writeFileSync(agent, '#!/bin/sh\nprompt=$(cat)\nprintf "agent saw %s lines; last: %s" "$(printf "%s\\n" "$prompt" | wc -l | tr -d " ")" "$(printf "%s\\n" "$prompt" | tail -n 1)"\n');
    chmodSync(agent, 0o755);
    const backend = createModelBackend({ config: config(`cli_agent:\n  command: [${agent}]\n`), env: env(), flags: { backend: 'cli' } });
    const { result, logsRoot } = await runWith(dot('  x [prompt="Write the code"]\n  start -> x -> exit'), backend);
    expect(result.status).toBe('success');
    const response = readFileSync(join(logsRoot, 'x', 'response.md'), 'utf8');
    expect(response).toMatch(/^agent saw \d+ lines; last: Write the code$/);
    // The preamble came first on stdin (a compact one: goal and completed stages).
    expect(Number(/saw (\d+) lines/.exec(response)?.[1])).toBeGreaterThan(3);
    expect(server.requests).toHaveLength(0);
  });
});
