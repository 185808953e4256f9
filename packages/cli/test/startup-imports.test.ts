import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelFreeEnv, runOrchestra, tempDir } from './cli-helpers.js';

/** `validate` and `run --simulate` never load LangChain; a run with a model does. */

const recorder = fileURLToPath(new URL('./support/record-loads.mjs', import.meta.url));

/** The files of the modules an orchestra command loaded, and whether any holds LangChain's OpenAI client. */
async function loadsOf(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; langchain: boolean; files: string[] }> {
  const list = join(tempDir(), 'loads.txt');
  const result = await runOrchestra(args, { env: modelFreeEnv({ NODE_OPTIONS: `--import=${recorder}`, ORCHESTRA_TEST_LOADS: list, ...env }) });
  const files = readFileSync(list, 'utf8')
    .split('\n')
    .filter((u) => u.startsWith('file:'))
    .map((u) => fileURLToPath(u));
  const langchain = files.some((f) => /@langchain[\\/]openai/.test(f) || (/[\\/]packages[\\/]cli[\\/]dist[\\/]/.test(f) && readFileSync(f, 'utf8').includes('class ChatOpenAI')));
  return { code: result.code, langchain, files };
}

describe('start-up: what each command loads', () => {
  it('validate loads no LangChain', async () => {
    const r = await loadsOf(['validate', 'fixtures/plan-implement-review.dot']);
    expect(r.code).toBe(0);
    expect(r.files.length).toBeGreaterThan(1);
    expect(r.langchain).toBe(false);
  });

  it('run --simulate loads no LangChain', async () => {
    const r = await loadsOf(['run', 'fixtures/plan-implement-review.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(0);
    expect(r.langchain).toBe(false);
  });

  it('a run with a model loads it (the check can see LangChain when it is there)', async () => {
    // No server: the run is refused before any call, but only after the model backend was built.
    const r = await loadsOf(['run', 'fixtures/plan-implement-review.dot', '--model', 'm', '--quiet', '--logs-dir', join(tempDir(), 'run')]);
    expect(r.code).toBe(2);
    expect(r.langchain).toBe(true);
  });
});
