import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

/** A directory with `a-dir/` and `a-file` in it. */
function place(): { dir: string; aDir: string; aFile: string } {
  const dir = tempDir();
  const aDir = join(dir, 'a-dir');
  const aFile = join(dir, 'a-file');
  mkdirSync(aDir);
  writeFileSync(aFile, 'not a run\n');
  return { dir, aDir, aFile };
}

/** Exit 2, one line on stderr with these words, no stack trace, nothing on stdout. */
function refused(r: { code: number | null; stdout: string; stderr: string }, words: string): void {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toBe(`orchestra: ${words}\n`);
  expect(r.stdout).toBe('');
}

describe('file-system mistakes are said in words, with exit 2', () => {
  it('a directory, a missing file, or a file on the way where a pipeline file is expected', async () => {
    const { aDir, aFile } = place();
    refused(await cli('run', aDir), `cannot read ${aDir}: ${aDir} is a directory, not a pipeline file`);
    refused(await cli('validate', aDir), `cannot read ${aDir}: ${aDir} is a directory, not a pipeline file`);
    refused(await cli('run', join(aFile, 'x.dot')), `cannot read ${join(aFile, 'x.dot')}: ${join(aFile, 'x.dot')} cannot exist: ${aFile} is a file, not a directory`);
    refused(await cli('run', join(aDir, 'missing.dot')), `cannot read ${join(aDir, 'missing.dot')}: no such file`);
  });

  it('a file where the run directory should go or be, and nothing where it should be', async () => {
    const { dir, aFile } = place();
    refused(await cli('run', 'fixtures/branching.dot', '--simulate', '--quiet', '--logs-dir', aFile), `cannot keep the run in ${aFile}: ${aFile} is a file, not a directory`);
    const under = join(aFile, 'run');
    refused(await cli('run', 'fixtures/branching.dot', '--simulate', '--quiet', '--logs-dir', under), `cannot keep the run in ${under}: ${under} cannot exist: ${aFile} is a file, not a directory`);
    for (const command of [['resume', aFile], ['status', aFile], ['answer', aFile, 'A']]) {
      refused(await cli(...command), `${aFile} is a file, not a run directory`);
    }
    const missing = join(dir, 'no-such-run');
    refused(await cli('status', missing), `${missing} does not exist`);
    expect(readdirSync(dir).sort()).toEqual(['a-dir', 'a-file']); // nothing was created
  });

  it('a directory as --answers, and a file or nothing as resume --cwd', async () => {
    const { dir, aDir, aFile } = place();
    refused(
      await cli('run', 'fixtures/human-gate.dot', '--simulate', '--quiet', '--answers', aDir, '--logs-dir', join(dir, 'run')),
      `cannot read answers file ${aDir}: ${aDir} is a directory, not an answers file`,
    );
    const parked = join(dir, 'parked');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', parked)).code).toBe(3);
    for (const [cwd, words] of [
      [aFile, `${aFile} is a file, not a directory`],
      [join(dir, 'gone'), `${join(dir, 'gone')} does not exist`],
    ] as const) {
      const r = await cli('resume', parked, '--quiet', '--cwd', cwd);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`orchestra: --cwd ${cwd}: ${words}\n`);
    }
  });
});
