import { afterEach, describe, expect, it } from 'vitest';
import { RunContext } from '../../src/index.js';
import {
  CONTEXT_ENV_BUDGET,
  CONTEXT_ENV_VALUE_LIMIT,
  CONTEXT_FILE_ENV,
  contextEnvValue,
  toolEnvironment,
} from '../../src/handlers/tool-environment.js';

const ctxVars = (env: NodeJS.ProcessEnv) => Object.keys(env).filter((name) => name.startsWith('ORCHESTRA_CTX_'));

describe('toolEnvironment bounds', () => {
  afterEach(() => {
    delete process.env.ORCHESTRA_CTX_INHERITED;
    delete process.env[CONTEXT_FILE_ENV];
  });

  it('cuts a long value to CONTEXT_ENV_VALUE_LIMIT bytes on a character boundary', () => {
    const env = toolEnvironment(new RunContext({ big: 'x'.repeat(200 * 1024), wide: '€'.repeat(20_000) }), '/logs', 'n');
    expect(env.ORCHESTRA_CTX_BIG).toBe('x'.repeat(CONTEXT_ENV_VALUE_LIMIT));
    const wide = env.ORCHESTRA_CTX_WIDE as string;
    expect(wide).toBe('€'.repeat(Math.floor(CONTEXT_ENV_VALUE_LIMIT / 3)));
  });

  it('removes NUL bytes, which no environment variable can hold', () => {
    expect(contextEnvValue('a\0b\0')).toBe('ab');
    expect(toolEnvironment(new RunContext({ s: 'x\0y' }), '/logs', 'n').ORCHESTRA_CTX_S).toBe('xy');
  });

  it('leaves out the values past CONTEXT_ENV_BUDGET, in context order', () => {
    const values: Record<string, string> = {};
    for (let i = 0; i < 12; i++) values[`k${i}`] = 'v'.repeat(CONTEXT_ENV_VALUE_LIMIT);
    values.small = 'tiny';
    const env = toolEnvironment(new RunContext(values), '/logs', 'n');
    const names = ctxVars(env);
    const fits = Math.floor(CONTEXT_ENV_BUDGET / (CONTEXT_ENV_VALUE_LIMIT + 'ORCHESTRA_CTX_K10='.length + 1));
    expect(names).toEqual(Array.from({ length: fits }, (_, i) => `ORCHESTRA_CTX_K${i}`));
    const total = names.reduce((sum, name) => sum + Buffer.byteLength(`${name}=${env[name]}`) + 1, 0);
    expect(total).toBeLessThanOrEqual(CONTEXT_ENV_BUDGET);
  });

  it('names the context file and drops ORCHESTRA_CTX_ variables orchestra itself inherited', () => {
    process.env.ORCHESTRA_CTX_INHERITED = 'from outside';
    process.env[CONTEXT_FILE_ENV] = '/elsewhere.json';
    const withFile = toolEnvironment(new RunContext({ a: 1 }), '/logs', 'n', '/logs/n/context.json');
    expect(withFile[CONTEXT_FILE_ENV]).toBe('/logs/n/context.json');
    expect(withFile.ORCHESTRA_CTX_INHERITED).toBeUndefined();
    expect(withFile.ORCHESTRA_CTX_A).toBe('1');
    expect(toolEnvironment(new RunContext({}), '/logs', 'n')[CONTEXT_FILE_ENV]).toBeUndefined();
  });
});
