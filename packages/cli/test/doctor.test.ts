import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

let server: ScriptedOpenAIServer;

beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'sk-test-0123456789abcd', models: ['small', 'big'] });
});

afterEach(async () => {
  await server.close();
});

describe('orchestra doctor (black box)', () => {
  it('shows the resolution with its sources and a masked key, and checks the endpoint', async () => {
    const r = await cliWith(['doctor', '--model', 'small'], { cwd: tempDir(), env: modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'sk-test-0123456789abcd' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('none found; using the environment');
    expect(r.stdout).toContain('model: small (--model flag)');
    expect(r.stdout).toContain(`base URL: ${server.url} (environment OPENAI_BASE_URL)`);
    expect(r.stdout).toContain('API key: sk-…abcd (environment OPENAI_API_KEY)');
    expect(r.stdout).not.toContain('sk-test-0123456789abcd');
    expect(r.stdout).toMatch(new RegExp(`✓ openai ${server.url.replace(/\./g, '\\.')}: answered in \\d+ ms, 2 model\\(s\\), including small`));
    expect(server.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models']);
  });

  it('reports each stage of a pipeline, a refused key and an unreachable endpoint (exit 1)', async () => {
    const project = tempDir();
    const closed = await startScriptedOpenAIServer();
    const down = closed.url;
    await closed.close();
    writeFileSync(
      join(project, 'orchestra.yaml'),
      `providers:\n  up:\n    base_url: ${server.url}\n    api_key_env: UP_KEY\n  down:\n    base_url: ${down}\nmodels:\n  fast: { provider: up, model: small }\n  far: { provider: down, model: x }\ndefaults:\n  model: fast\n`,
    );
    writeFileSync(join(project, 'p.dot'), 'digraph P { start [shape=Mdiamond]; exit [shape=Msquare]\n a [prompt="a"]\n b [prompt="b", llm_model=far]\n start -> a -> b -> exit }\n');
    const r = await cliWith(['doctor', join(project, 'p.dot')], { cwd: project, env: modelFreeEnv({ UP_KEY: 'wrong-key-000000000000' }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(join(project, 'orchestra.yaml'));
    expect(r.stdout).toContain('Stage a:');
    expect(r.stdout).toContain('model: fast → small');
    expect(r.stdout).toContain('Stage b:');
    expect(r.stdout).toContain('model: far → x');
    expect(r.stdout).toContain(`✗ up ${server.url}: refused the API key (HTTP 401; the key comes from environment UP_KEY)`);
    expect(r.stdout).toContain(`✗ down ${down}: connection refused (the URL comes from ${join(project, 'orchestra.yaml')}:6:15 providers.down.base_url)`);
    expect(r.stdout).toContain('2 problem(s) found');
  });

  it('a server that wants a key nobody set: says which variable to set', async () => {
    const r = await cliWith(['doctor', '--model', 'small'], { cwd: tempDir(), env: modelFreeEnv({ OPENAI_BASE_URL: server.url }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ openai ${server.url}: wants an API key and none was sent (HTTP 401): set OPENAI_API_KEY`);
  });

  it('a broken orchestra.yaml is exit 2 with its one-line error; --offline contacts nothing', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'orchestra.yaml'), 'defaults: [1, 2]\n');
    const broken = await cliWith(['doctor'], { cwd: project, env: modelFreeEnv() });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^orchestra: .*orchestra\.yaml:1:11: defaults: /);
    const offline = await cliWith(['doctor', '--model', 'm', '--offline'], { cwd: tempDir(), env: modelFreeEnv({ OPENAI_BASE_URL: server.url }) });
    expect(offline.code).toBe(0);
    expect(offline.stdout).toContain('(not contacted: --offline)');
    expect(server.requests).toHaveLength(0);
  });
});
