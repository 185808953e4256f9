import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline, runPipeline, type Graph, type RunEvent } from '@orchestra/core';
import { fixturePath, reply, startScriptedOpenAIServer, toolCalls, type RecordedRequest, type ScriptStep, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { combineConfigLayers, loadConfig, parseConfigText } from '../../src/config/index.js';
import { CHIEF_SYSTEM, toolRequiredReminder } from '../../src/conference/chief-prompt.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

const PIPELINE = fixturePath('manuscript/conference-review.dot');
const env = () => ({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' });

function systemOf(request: RecordedRequest): string {
  const first = request.messages?.[0];
  return typeof first?.content === 'string' ? first.content : '';
}

function receiptsIn(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/rcpt_[0-9a-f]+/g)].map((m) => m[0]);
}

/**
 * The model side of the manuscript review: the chief reads scene 2 and the
 * canon, then lists its receipts; each role answers from its contract with
 * the evidence its rule asks for, after `delays[role]` ms.
 */
function manuscriptModels(delays: Record<string, number>): (request: RecordedRequest) => ScriptStep {
  return (request) => {
    const system = systemOf(request);
    if (system === CHIEF_SYSTEM) {
      const toolResults = (request.messages ?? []).filter((m) => m.role === 'tool');
      if (toolResults.length === 0) return toolCalls([{ name: 'read_file', arguments: { path: 'scenes/scene-02.md' } }, { name: 'read_file', arguments: { path: 'canon.md' } }]);
      return reply(`Gathered: ${toolResults.flatMap((m) => receiptsIn(String(m.content))).join(', ')}`);
    }
    const receipts = receiptsIn(request.lastUserText);
    if (system.startsWith('You are the critic')) {
      return reply(`The catalogue of weights stalls the scene where the tension should rise.\nEvidence: receipt_id: ${receipts[0]}`, { delayMs: delays.critic });
    }
    if (system.startsWith('You are the continuity editor')) {
      return reply('Wren\'s eyes are brown here; the canon makes them green.\nEvidence: "Her brown eyes were wide in the lamplight." (scenes/scene-02.md)', { delayMs: delays.continuity });
    }
    if (system.startsWith('You are the editor')) {
      return reply('Cut the catalogue of weights first; then fix the eyes and what Ilse knows.\n\nExtra insight: the letter is the book\'s engine; keep it unread.\nEvidence: scenes/scene-02.md:19-30', { delayMs: delays.editor });
    }
    // The report stage.
    return reply('Review written.');
  };
}

async function reviewRun(delays: Record<string, number>) {
  server.respondWith(manuscriptModels(delays));
  const config = loadConfig({ pipelineFile: PIPELINE, cwd: tempDir(), home: tempDir(), env: {} });
  const backend = createModelBackend({ config, env: env(), flags: { model: 'scripted-model' } });
  const source = readFileSync(PIPELINE, 'utf8');
  const loaded = loadPipeline(source, { file: PIPELINE });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const logsRoot = join(tempDir(), 'run');
  const events: RunEvent[] = [];
  const result = await runPipeline(loaded.graph as Graph, { backend, logsRoot, source, sourceFile: PIPELINE, onEvent: (e) => events.push(e) });
  return { result, logsRoot, events };
}

describe('a conference against the scripted OpenAI server (real ChatOpenAI clients)', () => {
  it('reviews the sample manuscript: the chief reads with receipts, three roles answer grounded and without tools, in any order', async () => {
    const first = await reviewRun({ critic: 1, continuity: 40, editor: 80 });
    expect(first.result.status).toBe('success');
    expect(first.result.completedNodes).toEqual(['start', 'review', 'report', 'exit']);

    const chief = server.completions.filter((r) => systemOf(r) === CHIEF_SYSTEM);
    // The chief is offered exactly conference.tools, and each tool result it gets back names its receipt.
    expect((chief[0]?.tools as { function: { name: string } }[]).map((t) => t.function.name).sort()).toEqual(['list_files', 'read_file', 'search_text']);
    const toolResults = (chief[1]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
    expect(toolResults).toHaveLength(2);
    expect(toolResults[0]).toMatch(/^\[receipt_id: rcpt_[0-9a-f]{16}\]\n/);
    expect(toolResults[0]).toContain('Her brown eyes were wide in the lamplight.');

    // Roles: no tool catalogue, the question and the evidence, never another role's reply.
    const roles = server.completions.filter((r) => systemOf(r).startsWith('You are the') && systemOf(r) !== CHIEF_SYSTEM && !systemOf(r).startsWith('You are one stage'));
    expect(roles).toHaveLength(3);
    for (const r of roles) {
      expect(r.tools ?? []).toEqual([]);
      expect(r.lastUserText).toContain('Find what scene 2 of The Tallow Bridge gets wrong');
      expect(r.lastUserText).toContain('Her brown eyes were wide in the lamplight.');
      expect(r.lastUserText).not.toContain('catalogue of weights stalls');
    }

    const record = JSON.parse(readFileSync(join(first.logsRoot, 'review', 'conference.json'), 'utf8')) as { roles: { role: string; status: string }[]; evidence: { receipt_id: string; tool: string; sha256: string }[]; answered: number };
    expect(record.answered).toBe(3);
    expect(record.roles.map((r) => [r.role, r.status])).toEqual([['critic', 'answered'], ['continuity', 'answered'], ['editor', 'answered']]);
    const receipts = readFileSync(join(first.logsRoot, 'review', 'receipts.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { receipt_id: string; arguments: { path: string }; payload: string });
    expect(receipts.map((r) => r.arguments.path)).toEqual(['scenes/scene-02.md', 'canon.md']);
    expect(receipts[1]?.payload).toContain(readFileSync(fixturePath('manuscript/book/canon.md'), 'utf8').split('\n')[14]);
    // The report stage read the roles' replies from the context.
    expect(readFileSync(join(first.logsRoot, 'report', 'prompt.md'), 'utf8')).toContain('Continuity (answered): Wren\'s eyes are brown here');
    expect(first.events.filter((e) => e.type === 'conference.role.completed').map((e) => (e as { role: string }).role)).toEqual(['critic', 'continuity', 'editor']);

    // The same conference with the roles finishing the other way round: the same transcript, times and receipt ids aside.
    server.reset();
    const second = await reviewRun({ critic: 80, continuity: 40, editor: 1 });
    expect(second.events.filter((e) => e.type === 'conference.role.completed').map((e) => (e as { role: string }).role)).toEqual(['editor', 'continuity', 'critic']);
    const normalise = (dir: string) => {
      let text = readFileSync(join(dir, 'review', 'conference.json'), 'utf8');
      for (const [i, id] of [...new Set(receiptsIn(text))].entries()) text = text.replaceAll(id, `rcpt_${i}`);
      return text.replace(/"(at|duration_ms)": ("[^"]*"|\d+)/g, '"$1": 0');
    };
    expect(normalise(second.logsRoot)).toBe(normalise(first.logsRoot));
  });

  it('sends the chief back once when it answers before calling a tool', async () => {
    let chiefCalls = 0;
    server.respondWith((request) => {
      if (systemOf(request) === CHIEF_SYSTEM) {
        chiefCalls += 1;
        if (chiefCalls === 1) return reply('Scene 2 looks fine to me.');
        if (chiefCalls === 2) return toolCalls([{ name: 'list_files', arguments: { path: '.' } }]);
        return reply('Listed the files.');
      }
      return manuscriptModels({})(request);
    });
    const config = loadConfig({ pipelineFile: PIPELINE, cwd: tempDir(), home: tempDir(), env: {} });
    const backend = createModelBackend({ config, env: env(), flags: { model: 'scripted-model' } });
    const source = readFileSync(PIPELINE, 'utf8');
    const result = await runPipeline(loadPipeline(source, { file: PIPELINE }).graph as Graph, { backend, logsRoot: join(tempDir(), 'run'), source, sourceFile: PIPELINE });
    const chief = server.completions.filter((r) => systemOf(r) === CHIEF_SYSTEM);
    expect(chief[1]?.lastUserText).toBe(toolRequiredReminder(['read_file', 'list_files', 'search_text']));
    // The roles cite the list_files receipt; continuity quotes the scene, which the chief never read, but the file is in the workspace.
    expect(result.status).toBe('success');
  });

  it('refuses a run up front for a role no roles: defines, or whose model cannot be reached', async () => {
    const project = tempDir();
    const yaml = [
      'defaults: { provider: openai, model: scripted-model }',
      'providers:',
      '  far: { base_url: "https://api.openai.com/v1", api_key_env: FAR_KEY }',
      'models:',
      '  big: { model: big-model, provider: far }',
      'roles:',
      '  critic: { contract: "You are the critic.", evidence: receipt }',
      '  editor: { contract: "You are the editor.", model: big }',
    ].join('\n');
    const config = combineConfigLayers([parseConfigText(yaml, join(project, 'orchestra.yaml'))], { cwd: project });
    // No --model: it would give every stage and role its model.
    const backend = createModelBackend({ config, env: env() });
    const graph = (roles: string) => loadPipeline(`digraph G { start [shape=Mdiamond]; exit [shape=Msquare]; review [type="conference", prompt="q", conference.roles="${roles}"]; start -> review -> exit }`).graph as Graph;
    await expect(runPipeline(graph('critic,critc'), { backend, logsRoot: join(tempDir(), 'a') })).rejects.toThrow('conference node review: "critc" is not a role (roles: in ' + join(project, 'orchestra.yaml') + '; the roles are critic, editor): did you mean "critic"?');
    await expect(runPipeline(graph('critic,editor'), { backend, logsRoot: join(tempDir(), 'b') })).rejects.toThrow(/conference node review, role editor \(model big\): .*FAR_KEY/);
    expect(server.completions).toHaveLength(0);
  });
});

describe('roles: in orchestra.yaml', () => {
  it('is checked like the rest of the file, with file:line:col', () => {
    const bad = (yaml: string) => () => parseConfigText(yaml, '/p/orchestra.yaml');
    expect(bad('roles:\n  critic:\n    contract: x\n    tier: T4\n')).toThrow(/^\/p\/orchestra\.yaml:4:11: roles\.critic\.tier: .*T1, T3, T5/);
    expect(bad('roles:\n  critic:\n    contract: x\n    evidence: receipts\n')).toThrow(/^\/p\/orchestra\.yaml:4:15: roles\.critic\.evidence: .*receipt, quote, any, none/);
    expect(bad('roles:\n  critic:\n    contract: x\n    contract_file: c.md\n')).toThrow(/roles\.critic: give the role exactly one of contract: \(the text\) and contract_file: \(a file\)/);
    expect(bad('roles:\n  critic:\n    evidence: any\n')).toThrow(/roles\.critic: give the role exactly one of contract/);
    expect(bad('roles:\n  "two words":\n    contract: x\n')).toThrow(/role names start with a letter/);
    expect(bad('conference:\n  templates:\n    t4: x.md\n')).toThrow(/conference\.templates/);
  });

  it('reads a contract file next to the yaml that names it', async () => {
    const project = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(project, 'critic.md'), 'You are the critic, from a file.');
    writeFileSync(join(project, 'orchestra.yaml'), 'roles:\n  critic:\n    contract_file: critic.md\n    tier: T1\n');
    const config = loadConfig({ cwd: project, home: tempDir(), env: {} });
    const { conferenceRoles } = await import('../../src/config/conference-roles.js');
    const node = (loadPipeline('digraph G { start [shape=Mdiamond]; exit [shape=Msquare]; r [type="conference", prompt="q", conference.roles="critic"]; start -> r -> exit }').graph as Graph).nodes.get('r');
    expect(conferenceRoles(config, ['critic'], node!)).toEqual([{ name: 'critic', contract: 'You are the critic, from a file.', evidence: 'any', tier: 'T1' }]);
  });

  it('reads conference.templates next to the yaml, and names where a missing one was set', async () => {
    const project = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(project, 't3.md'), 'Mine: {{question}}');
    writeFileSync(join(project, 'orchestra.yaml'), 'conference:\n  templates:\n    t3: t3.md\n    retry: gone.md\n');
    const config = loadConfig({ cwd: project, home: tempDir(), env: {} });
    const { configuredTemplates } = await import('../../src/config/conference-roles.js');
    expect(() => configuredTemplates(config)).toThrow(`${join(project, 'orchestra.yaml')}:4:12: conference.templates.retry: the template file ${join(project, 'gone.md')} cannot be read (ENOENT)`);
    writeFileSync(join(project, 'orchestra.yaml'), 'conference:\n  templates:\n    t3: t3.md\n');
    expect(configuredTemplates(loadConfig({ cwd: project, home: tempDir(), env: {} }))).toEqual({ t3: 'Mine: {{question}}' });
  });
});
