import { afterEach, describe, expect, it } from 'vitest';
import { RunContext } from '../../src/index.js';
import {
  CONTEXT_ENV_BUDGET,
  CONTEXT_ENV_NAME_LIMIT,
  CONTEXT_ENV_VALUE_LIMIT,
  CONTEXT_FILE_ENV,
  buildToolEnvironment,
  contextEnvValue,
  describeContextEnvLosses,
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

  it('leaves out a key whose variable name would be over CONTEXT_ENV_NAME_LIMIT, and only that one', () => {
    const long = 'k'.repeat(150_000);
    const edge = 'e'.repeat(CONTEXT_ENV_NAME_LIMIT - 'ORCHESTRA_CTX_'.length);
    const { env, losses } = buildToolEnvironment(new RunContext({ before: 1, [long]: 'v', [edge]: 'w', after: 2 }), '/logs', 'n');
    expect(ctxVars(env)).toEqual(['ORCHESTRA_CTX_BEFORE', `ORCHESTRA_CTX_${edge.toUpperCase()}`, 'ORCHESTRA_CTX_AFTER']);
    expect(losses).toEqual({ longNames: [long], overBudget: [], cut: [] });
  });

  it('says in a note which keys were left out or cut, naming a few, each shortened', () => {
    const values: Record<string, string> = { big: 'x'.repeat(CONTEXT_ENV_VALUE_LIMIT + 1), [`${'k'.repeat(50)}`.repeat(1000)]: 'v' };
    for (let i = 0; i < 12; i++) values[`k${i}`] = 'v'.repeat(CONTEXT_ENV_VALUE_LIMIT);
    const { losses } = buildToolEnvironment(new RunContext(values), '/logs', 'n');
    expect(describeContextEnvLosses(losses)).toBe(
      ` (context not passed as ORCHESTRA_CTX_ variables, only in the context file: 1 key with a name over 32 KiB (${'k'.repeat(40)}...); 6 keys past the 256 KiB budget (k6, k7, k8, k9, k10 and 1 more); values cut to 32 KiB in ORCHESTRA_CTX_ variables: big)`,
    );
    expect(describeContextEnvLosses({ longNames: [], overBudget: [], cut: [] })).toBe('');
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
