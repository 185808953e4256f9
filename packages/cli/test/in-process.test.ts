import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { ROOT, tempDir } from './cli-helpers.js';
import { cli, cliSession, cliWith } from './in-process.js';

/** The in-process runner the CLI tests use: what a command sees, and what the test gets back. */
describe('orchestra in the test process', () => {
  it('runs from the repository root by default, or in the directory given, and returns code, stdout and stderr', async () => {
    expect(await cli('validate', 'fixtures/simple.dot')).toEqual({ code: 0, stdout: 'fixtures/simple.dot: valid (0 warnings)\n', stderr: '' });
    const elsewhere = realpathSync(tempDir());
    expect(await cliWith(['validate', 'fixtures/simple.dot'], { cwd: elsewhere })).toEqual({ code: 2, stdout: '', stderr: 'orchestra: cannot read fixtures/simple.dot: no such file\n' });
    expect(await cliWith(['validate', join(ROOT, 'fixtures', 'simple.dot')], { cwd: elsewhere })).toMatchObject({ code: 0 });
  });

  it("gives the command the environment asked for, and puts back the test process's", async () => {
    const before = process.env.ORCHESTRA_TOKEN;
    // ORCHESTRA_TOKEN decides whether `serve --no-auth` is refused: set, it is (exit 2, before anything listens).
    const refused = await cliWith(['serve', '--no-auth'], { env: { ...process.env, ORCHESTRA_TOKEN: 'abcdefghijklmnopq' } });
    expect(refused).toMatchObject({ code: 2, stderr: expect.stringContaining('$ORCHESTRA_TOKEN is set and --no-auth was given') });
    expect(process.env.ORCHESTRA_TOKEN).toBe(before);
  });

  it('feeds standard input as the command reads it, and waitFor fails when the command ends without the text', async () => {
    const session = cliSession(['run', fixturePath('human-gate.dot'), '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'r')]);
    await session.waitFor('Select: ');
    session.end('A\n');
    await expect(session.waitFor('never printed')).rejects.toThrow('the command ended before its stderr showed "never printed"');
    expect((await session.done).code).toBe(0);
    expect(session.output().stdout).toContain('→ [A] Approve');
  });
});
