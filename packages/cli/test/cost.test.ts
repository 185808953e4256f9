import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startScriptedOpenAIServer, type ScriptedOpenAIServer } from '@orchestra/testing';
import { ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `prices` in orchestra.yaml: the cost of each stage and of the run, against the scripted OpenAI server. */

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
  // 40 tokens in, 10 out, for every call.
  server.respondWith(() => reply('done', { usage: { promptTokens: 40, completionTokens: 10 } }));
});
afterEach(async () => {
  await server.close();
});

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>;

/** A project with the three-stage pipeline and an orchestra.yaml saying `prices`. */
function project(prices: string): string {
  const dir = tempDir();
  copyFileSync(join(ROOT, 'fixtures', 'plan-implement-review.dot'), join(dir, 'pipeline.dot'));
  writeFileSync(join(dir, 'orchestra.yaml'), `defaults:\n  model: scripted-model\n${prices}`);
  return dir;
}

function run(dir: string) {
  return cliWith(['run', 'pipeline.dot', '--logs-dir', 'run'], { cwd: dir, env: modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' }) });
}

describe('the cost of a run (orchestra.yaml prices)', () => {
  it('prices every call: each stage in status.json and its line, the run in the summary, the checkpoint, status and status --json', async () => {
    // $3 per million input tokens, $15 per million output: a call costs (40 × 3 + 10 × 15) / 1e6 = $0.00027.
    const dir = project('prices:\n  models:\n    scripted-model: { input: 3, output: 15 }\n');
    const result = await run(dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const node of ['plan', 'implement', 'review']) {
      const usage = json(join(dir, 'run', node, 'status.json')).usage;
      expect(usage).toMatchObject({ input_tokens: 40, output_tokens: 10, total_tokens: 50, cost: { currency: 'USD' } });
      expect(usage.cost.amount).toBeCloseTo(0.00027, 12);
    }
    expect(result.stdout).toMatch(/✓ plan +\S+ +50 tokens \$0\.0003/);
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out), cost $0.0008');
    expect(json(join(dir, 'run', 'checkpoint.json')).token_usage.cost.amount).toBeCloseTo(0.00081, 12);
    const status = await cliWith(['status', join(dir, 'run')]);
    expect(status.stdout).toContain('  tokens: 150 (120 in, 30 out), cost $0.0008\n');
    const statusJson = JSON.parse((await cliWith(['status', join(dir, 'run'), '--json'])).stdout);
    expect(statusJson.usage.cost.currency).toBe('USD');
    expect(statusJson.usage.cost.amount).toBeCloseTo(0.00081, 12);
  });

  it('in another currency; and no cost at all when a model has no price (an undercount would mislead)', async () => {
    const euros = project('prices:\n  currency: EUR\n  models:\n    scripted-model: { input: 1000, output: 2000 }\n');
    expect((await run(euros)).stdout).toContain('tokens: 150 (120 in, 30 out), cost 0.1800 EUR');
    const unpriced = project('prices:\n  models:\n    another-model: { input: 1, output: 1 }\n');
    const result = await run(unpriced);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tokens: 150 (120 in, 30 out)\n');
    expect(json(join(unpriced, 'run', 'plan', 'status.json')).usage).toEqual({ input_tokens: 40, output_tokens: 10, total_tokens: 50 });
    expect(JSON.parse((await cliWith(['status', join(unpriced, 'run'), '--json'])).stdout).usage.cost).toBeNull();
  });

  it('a bad price is refused where it is written', async () => {
    const dir = project('prices:\n  models:\n    scripted-model: { input: -1, output: 2 }\n');
    const result = await run(dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/orchestra\.yaml:5:30: prices\.models\.scripted-model\.input: a price cannot be negative\n$/);
  });
});
