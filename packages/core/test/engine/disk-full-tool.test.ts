import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NoSpaceError, resumePipeline, runPipeline, type Handler } from '../../src/index.js';
import { readCheckpoint, readJournal } from '../../src/store.js';
import { dot, graphFrom, registryWith, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** start -> prep -> build (a tool printing `bytes` bytes) -> exit. */
function pipeline(bytes: number): string {
  return dot(
    [
      '  prep [type="s"]',
      `  build [shape=parallelogram, tool_command="head -c ${bytes} /dev/zero | tr '\\\\\\\\0' x; echo; echo built"]`,
      '  start -> prep -> build -> exit',
    ].join('\n'),
  );
}

/** Runs `source` in `logsRoot`; `prep` runs `beforeBuild` first. */
function runIt(source: string, logsRoot: string, beforeBuild: () => void = () => {}) {
  const prep: Handler = {
    execute: () => {
      beforeBuild();
      return { status: 'success' };
    },
  };
  return runPipeline(graphFrom(source), { registry: registryWith({ s: prep }), logsRoot, source, random: () => 0 });
}

/** What a run stopped by a full disk must look like: nothing journaled for build, not ended, and a resume finishes it. */
async function expectInterruptedThenResumable(logsRoot: string, error: unknown, freeSpace: () => void): Promise<void> {
  expect(error).toBeInstanceOf(NoSpaceError);
  expect(error).toMatchObject({ code: 'ORCH_NO_SPACE', message: expect.stringMatching(/^no space left on .*; free some space, then resume the run$/) });
  expect(readJournal(logsRoot).entries.map((e) => e.node)).not.toContain('build');
  expect(['completed', 'failed']).not.toContain(readCheckpoint(logsRoot).status);
  freeSpace();
  const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: { execute: () => ({ status: 'success' }) } }) });
  expect(resumed.status).toBe('success');
  expect(resumed.completedNodes).toEqual(['start', 'prep', 'build', 'exit']);
  expect(String(resumed.context['tool.output'])).toMatch(/built$/);
}

describe('a full disk while a tool writes its output interrupts the run; it does not fail the node', () => {
  it.runIf(existsSync('/dev/full'))('the tool\'s stdout.log on a full device: the run stops resumable, and resume finishes it', async () => {
    const logsRoot = join(tempDir(), 'run');
    const log = join(logsRoot, 'build', 'stdout.log');
    const error = await runIt(pipeline(1000), logsRoot, () => {
      mkdirSync(join(logsRoot, 'build'), { recursive: true });
      symlinkSync('/dev/full', log);
    }).catch((e: unknown) => e);
    expect((error as Error).message).toContain(`no space left on ${log}`);
    await expectInterruptedThenResumable(logsRoot, error, () => rmSync(log));
  });

  describe.runIf(process.getuid?.() === 0 && process.platform === 'linux')('on a small tmpfs', () => {
    const mountPoint = join(tempDir(), 'small');
    let mounted = false;
    afterAll(() => {
      if (mounted) execFileSync('umount', [mountPoint]);
    });

    it('a tool printing more than the disk holds: the run stops resumable, and resume after freeing space finishes it', async (context) => {
      mkdirSync(mountPoint);
      try {
        execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint], { stdio: 'ignore' });
        mounted = true;
      } catch {
        context.skip('this machine does not allow mounting a tmpfs');
      }
      const logsRoot = join(mountPoint, 'run');
      const error = await runIt(pipeline(200 * 1024), logsRoot).catch((e: unknown) => e);
      await expectInterruptedThenResumable(logsRoot, error, () => {
        rmSync(join(logsRoot, 'build', 'stdout.log'));
        execFileSync('mount', ['-o', 'remount,size=8m', mountPoint]);
      });
    });
  });
});
