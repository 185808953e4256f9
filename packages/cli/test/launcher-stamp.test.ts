import { mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './cli-helpers.js';

/** The launcher's own check (bin/orchestra.js exports it when required instead of run). */
const launcher = createRequire(import.meta.url)('../bin/orchestra.js') as {
  staleReason: (cliDir: string, argv: readonly string[]) => string | undefined;
  stampGroups: (argv: readonly string[]) => string[];
};

describe('the launcher decides between the bundle and the sources by the build stamp', () => {
  let root: string;
  let cliDir: string;
  const start = 'packages/core/src/loader.ts';
  const command = 'packages/core/src/engine/run-engine.ts';

  /** A checkout whose stamp records the files as they are now. */
  beforeEach(() => {
    root = tempDir();
    cliDir = join(root, 'packages', 'cli');
    for (const file of [start, command]) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), 'export {};\n');
    }
    mkdirSync(join(cliDir, 'dist', 'stamp'), { recursive: true });
    const entry = (file: string) => [file, statSync(join(root, file)).mtimeMs];
    writeFileSync(join(cliDir, 'dist', 'stamp', 'start.json'), JSON.stringify([entry(start)]));
    writeFileSync(join(cliDir, 'dist', 'stamp', 'commands.json'), JSON.stringify([entry(command)]));
  });

  /** Gives `file` another mtime (an edit, a checkout of another branch, a copy with the old time kept). */
  function touch(file: string, seconds: number): void {
    utimesSync(join(root, file), seconds, seconds);
  }

  it('takes the bundle when every recorded file has its recorded mtime', () => {
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toBeUndefined();
    expect(launcher.staleReason(cliDir, ['run', 'x.dot'])).toBeUndefined();
  });

  it('runs the sources when a file of the start-up bundle changed, for every command', () => {
    touch(start, 2_000_000_000);
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toBe(`${start} changed since the build`);
    expect(launcher.staleReason(cliDir, ['run', 'x.dot'])).toBe(`${start} changed since the build`);
  });

  it('compares exact mtimes: an older one (a file restored with its time kept) counts as a change too', () => {
    touch(start, 1_000_000);
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toBe(`${start} changed since the build`);
  });

  it('compares the other commands\' files only for those commands', () => {
    touch(command, 2_000_000_000);
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toBeUndefined();
    expect(launcher.staleReason(cliDir, ['--version'])).toBeUndefined();
    expect(launcher.staleReason(cliDir, ['run', 'x.dot'])).toBe(`${command} changed since the build`);
    expect(launcher.staleReason(cliDir, ['--debug', 'serve'])).toBe(`${command} changed since the build`);
  });

  it('runs the sources when a recorded file is gone or there is no stamp', () => {
    rmSync(join(root, command));
    expect(launcher.staleReason(cliDir, ['status', 'dir'])).toBe(`${command} is gone since the build`);
    rmSync(join(cliDir, 'dist', 'stamp'), { recursive: true });
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toMatch(/start\.json is missing or unreadable/);
  });

  it('an input changed during the build is recorded as -1: never up to date until the next build', () => {
    writeFileSync(join(cliDir, 'dist', 'stamp', 'start.json'), JSON.stringify([[start, -1]]));
    expect(launcher.staleReason(cliDir, ['validate', 'x.dot'])).toBe(`${start} changed since the build`);
  });

  it('the command is the first argument that is not an option', () => {
    expect(launcher.stampGroups([])).toEqual(['start']);
    expect(launcher.stampGroups(['--debug', 'validate', '--json', 'a.dot'])).toEqual(['start']);
    expect(launcher.stampGroups(['help', 'run'])).toEqual(['start']);
    expect(launcher.stampGroups(['-V'])).toEqual(['start']);
    expect(launcher.stampGroups(['render', 'a.dot'])).toEqual(['start', 'commands']);
    expect(launcher.stampGroups(['nonsense'])).toEqual(['start', 'commands']);
  });
});
