import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runProcess } from '../../src/process/index.js';
import { isGone, pidFrom, removeTempDirs, tempDir, waitFor } from './helpers.js';

afterEach(removeTempDirs);

const sh = (command: string) => ['/bin/sh', '-c', command];

describe('runProcess', () => {
  it('runs argv without a shell, feeds stdin and captures stdout, stderr and the exit code', async () => {
    const dir = tempDir();
    const result = await runProcess({ argv: ['/bin/echo', '$HOME', '; rm -rf x', '`id`'], cwd: dir, env: {} });
    expect(result).toMatchObject({ exitCode: 0, signal: null, stdout: '$HOME ; rm -rf x `id`\n', stderr: '', timedOut: false, aborted: false, truncated: false });
    const piped = await runProcess({ argv: sh('cat; echo oops >&2; exit 3'), cwd: dir, env: {}, stdin: 'hello\n' });
    expect(piped).toMatchObject({ exitCode: 3, stdout: 'hello\n', stderr: 'oops\n' });
  });

  it('survives a program that does not read its stdin (EPIPE)', async () => {
    const result = await runProcess({ argv: sh('exit 0'), cwd: tempDir(), env: {}, stdin: 'x'.repeat(4 * 1024 * 1024) });
    expect(result.exitCode).toBe(0);
  });

  it('streams stdout in order, in whole characters', async () => {
    const chunks: string[] = [];
    const result = await runProcess({ argv: sh("printf 'é'; printf 'a\\n'; printf 'b\\n'"), cwd: tempDir(), env: {}, onStdout: (c) => chunks.push(c) });
    expect(chunks.join('')).toBe('éa\nb\n');
    expect(result.stdout).toBe('éa\nb\n');
  });

  it('caps the output it keeps and says so', async () => {
    const result = await runProcess({ argv: sh('head -c 300000 /dev/zero | tr "\\000" a; echo done >&2'), cwd: tempDir(), env: {}, maxOutputBytes: 1000 });
    expect(result.stdout).toBe('a'.repeat(1000));
    expect(result.stderr).toBe('done\n');
    expect(result.truncated).toBe(true);
  });

  it('rejects with a clear message when the program or the directory does not exist', async () => {
    await expect(runProcess({ argv: ['orchestra-no-such-program'], cwd: tempDir(), env: process.env })).rejects.toThrow(
      'cannot run "orchestra-no-such-program": not found (ENOENT)',
    );
    const missing = join(tempDir(), 'missing');
    await expect(runProcess({ argv: ['/bin/sh'], cwd: missing, env: {} })).rejects.toThrow(`cannot run "/bin/sh": its working directory "${missing}" does not exist (ENOENT)`);
    await expect(runProcess({ argv: [], cwd: tempDir(), env: {} })).rejects.toThrow('argv is empty');
  });

  it('kills the whole process group on timeout, grandchildren included', async () => {
    const dir = tempDir();
    const started = Date.now();
    const result = await runProcess({ argv: sh('sleep 30 & echo $! > child.pid; wait'), cwd: dir, env: process.env, timeoutMs: 200 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    // Far below the 30 s the sleep would take: the group was killed, not waited for.
    expect(Date.now() - started).toBeLessThan(5000);
    const child = await pidFrom(join(dir, 'child.pid'));
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it('kills the whole process group when aborted, and reports it', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const running = runProcess({ argv: sh('sleep 30 & echo $! > child.pid; wait'), cwd: dir, env: process.env, signal: controller.signal });
    const child = await pidFrom(join(dir, 'child.pid'));
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false });
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it('escalates to SIGKILL for a group that ignores SIGTERM', async () => {
    const dir = tempDir();
    const result = await runProcess({ argv: sh('trap "" TERM; sleep 30 & echo $! > child.pid; wait; wait'), cwd: dir, env: process.env, timeoutMs: 100 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe('SIGKILL');
    expect(await waitFor(() => isGone(Number(readFileSync(join(dir, 'child.pid'), 'utf8'))))).toBe(true);
  });

  it('does not wait for background jobs, and stops them when the command ends', async () => {
    const dir = tempDir();
    const started = Date.now();
    const result = await runProcess({ argv: sh('sleep 30 & echo $! > child.pid; echo started'), cwd: dir, env: process.env });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    // The background sleep holds stdout open; the runner must not wait the 30 s for it.
    expect(Date.now() - started).toBeLessThan(5000);
    const child = await pidFrom(join(dir, 'child.pid'));
    expect(await waitFor(() => isGone(child))).toBe(true);
  });

  it('does not start at all when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const dir = tempDir();
    const result = await runProcess({ argv: sh('touch ran'), cwd: dir, env: {}, signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });
});
