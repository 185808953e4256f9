import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from './cli-helpers.js';

function run(env: Record<string, string | undefined>): string {
  const vars: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete vars[key];
  const r = spawnSync(process.execPath, [BIN, 'run', 'fixtures/branching.dot', '--simulate', '--logs-dir', join(tempDir(), 'run')], { cwd: ROOT, encoding: 'utf8', env: vars });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('colour on the command line (black box)', () => {
  it('FORCE_COLOR colours a piped run; a pipe, or NO_COLOR, gets plain text', () => {
    expect(run({ FORCE_COLOR: '1', NO_COLOR: undefined })).toContain('\x1b[32m✓\x1b[39m');
    expect(run({ FORCE_COLOR: undefined, NO_COLOR: undefined })).not.toContain('\x1b[');
    expect(run({ FORCE_COLOR: undefined, NO_COLOR: '1' })).not.toContain('\x1b[');
  });
});
