import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CassetteRecorder, QueueInterviewer, cassetteHandlers, cassetteInterviewer, createDefaultRegistry, loadPipeline, runPipeline } from '@orchestra/core';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend, emptyConfig, loadConfig, replayCassette } from '../../src/index.js';
import { apiKeyValues, apiKeyVariables } from '../../src/config/index.js';
import { READY_TOOL } from '../../src/phases/index.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k-0000' });
});
afterEach(() => server.close());

const SCHEMA = { type: 'object', additionalProperties: false, required: ['title'], properties: { title: { type: 'string', minLength: 1 } } };

const SOURCE = `digraph Heist {
  start [shape=Mdiamond]
  exit  [shape=Msquare]
  talk  [prompt="Talk about the heist", agent.mode="interactive"]
  plan  [prompt="Plan the heist", output.schema="plan.schema.json"]
  start -> talk -> plan -> exit
}
`;

async function recordRun(dir: string) {
  const file = join(dir, 'heist.dot');
  writeFileSync(file, SOURCE);
  writeFileSync(join(dir, 'plan.schema.json'), JSON.stringify(SCHEMA));
  server.enqueue(
    reply('What kind of heist?'),
    reply('A museum, then. Anything else?'),
    toolCall(READY_TOOL, {}),
    reply('Brief: the title is "The job".'),
    toolCall('submit_plan', { title: 'The job' }),
  );
  const cassette = join(dir, 'heist.cassette');
  const recorder = await CassetteRecorder.create(cassette, { pipeline: 'Heist', source: SOURCE, flags: { model: 'planner' } });
  const backend = createModelBackend({ config: emptyConfig(dir), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k-0000' }, flags: { model: 'planner' }, cassette: recorder });
  const interviewer = cassetteInterviewer(recorder, new QueueInterviewer([{ value: 'A museum' }, { value: '/done' }]));
  const registry = createDefaultRegistry({ backend, interviewer });
  for (const [type, handler] of Object.entries(cassetteHandlers(recorder))) registry.register(type, handler);
  const result = await runPipeline(loadPipeline(SOURCE, { file }).graph!, { registry, logsRoot: join(dir, '20261127-010101-Heist'), workdir: dir, source: SOURCE, sourceFile: file });
  await recorder.flush();
  return { file, cassette, result };
}

describe('cassettes: interactive turns and phased nodes', () => {
  it('records each human turn as an answer and the Serialize call with its forced tool, and replays both', async () => {
    const dir = tempDir();
    const { file, cassette, result } = await recordRun(dir);
    expect(result.status).toBe('success');
    const entries = readFileSync(cassette, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { type: string; stage: string; request: Record<string, unknown> });
    expect(entries.filter((e) => e.type === 'answer').map((e) => e.stage)).toEqual(['talk', 'talk']);
    // Every request of the phased node, Summarize and Serialize too, names the run as <run id>: a replay in another directory matches.
    const planRequests = entries.filter((e) => e.stage === 'plan' && e.type === 'model');
    expect(planRequests.length).toBeGreaterThan(1);
    for (const e of planRequests) expect(JSON.stringify(e.request)).not.toContain('20261127-010101-Heist');
    const serialize = planRequests.at(-1);
    expect(serialize?.request.tool_choice).toBe('submit_plan');
    expect((serialize?.request.tools as { name: string }[]).map((t) => t.name)).toEqual(['submit_plan']);
    await server.close();
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {} });
    expect(replayed.status).toBe('success');
    expect(replayed.warnings).toEqual([]);
    expect(replayed.context['plan.output']).toEqual({ title: 'The job' });
  });
});

describe('cassettes: an interactive phased node', () => {
  it('records its Summarize and Serialize (run after /done) with the run id taken out, and replays them', async () => {
    const dir = tempDir();
    const source = SOURCE.replace('talk  [prompt="Talk about the heist", agent.mode="interactive"]\n', '').replace('start -> talk -> plan', 'start -> plan').replace('plan  [prompt="Plan the heist", output.schema="plan.schema.json"]', 'plan  [prompt="Plan the heist", agent.mode="interactive", output.schema="plan.schema.json"]');
    const file = join(dir, 'heist.dot');
    writeFileSync(file, source);
    writeFileSync(join(dir, 'plan.schema.json'), JSON.stringify(SCHEMA));
    server.enqueue(reply('What kind of heist?'), reply('Brief: the title is "The job".'), toolCall('submit_plan', { title: 'The job' }));
    const cassette = join(dir, 'heist.cassette');
    const recorder = await CassetteRecorder.create(cassette, { pipeline: 'Heist', source, flags: { model: 'planner' } });
    const backend = createModelBackend({ config: emptyConfig(dir), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k-0000' }, flags: { model: 'planner' }, cassette: recorder });
    const interviewer = cassetteInterviewer(recorder, new QueueInterviewer([{ value: '/done' }]));
    const registry = createDefaultRegistry({ backend, interviewer });
    const recorded = await runPipeline(loadPipeline(source, { file }).graph!, { registry, logsRoot: join(dir, '20261127-020202-Heist'), workdir: dir, source, sourceFile: file });
    await recorder.flush();
    expect(recorded.status).toBe('success');
    const requests = readFileSync(cassette, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { type: string; request: unknown }).filter((e) => e.type === 'model');
    expect(requests).toHaveLength(3);
    for (const e of requests) expect(JSON.stringify(e.request)).not.toContain('20261127-020202-Heist');
    await server.close();
    const replayed = await replayCassette({ pipeline: file, cassette, workdir: dir, env: {} });
    expect(replayed.status).toBe('success');
    expect(replayed.context['plan.output']).toEqual({ title: 'The job' });
  });
});

describe('provider keys', () => {
  it('are every built-in provider key variable and each configured api_key_env', () => {
    expect(apiKeyVariables(emptyConfig(tempDir())).sort()).toEqual(['ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'OPENAI_API_KEY']);
    const dir = tempDir();
    writeFileSync(join(dir, 'orchestra.yaml'), 'providers:\n  corp:\n    base_url: http://127.0.0.1:9/v1\n    api_key_env: CORP_LLM_KEY\n');
    const config = loadConfig({ cwd: dir, env: {} });
    expect(apiKeyVariables(config)).toContain('CORP_LLM_KEY');
    expect(apiKeyValues(config, { CORP_LLM_KEY: ' corp-secret ', ANTHROPIC_API_KEY: 'sk-ant-1', OPENAI_API_KEY: '' }).sort()).toEqual(['corp-secret', 'sk-ant-1']);
  });
});
