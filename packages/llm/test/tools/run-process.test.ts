import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

describe('runProcess with a ledger: the process group is recorded before the program runs', () => {
  /** A ledger that keeps what it is told, and lets each test hold or refuse the start. */
  function ledger(start: (pid: number) => Promise<void> | void = () => {}) {
    const events: string[] = [];
    return {
      events,
      started: async (pid: number, command: string) => {
        events.push(`started ${pid} ${command}`);
        await start(pid);
      },
      exited: (pid: number) => {
        events.push(`exited ${pid}`);
      },
    };
  }

  it('runs the program only once its group is recorded, then forgets it', async () => {
    const dir = tempDir();
    const sawFile: boolean[] = [];
    const record = ledger(async () => {
      await new Promise((r) => setTimeout(r, 300));
      sawFile.push(existsSync(join(dir, 'ran'))); // the program has not run while its record is being written
    });
    const result = await runProcess({ argv: sh('touch ran; cat; echo $$ > pid'), cwd: dir, env: process.env, stdin: 'in\n', ledger: record });
    expect(sawFile).toEqual([false]);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'in\n', aborted: false });
    const pid = Number(readFileSync(join(dir, 'pid'), 'utf8'));
    // The recorded PID is the program's own (the gate's shell became the program): the group a resume would stop.
    expect(record.events).toEqual([`started ${pid} /bin/sh -c touch ran; cat; echo $$ > pid`, `exited ${pid}`]);
  });

  it('passes the program and its arguments untouched (never into the gate script), finds it on PATH, keeps its exit code', async () => {
    const dir = tempDir();
    const record = ledger();
    const result = await runProcess({ argv: ['echo', '$HOME', '; rm -rf x', '`id`', '"$@"'], cwd: dir, env: { PATH: '/usr/bin:/bin' }, ledger: record });
    expect(result).toMatchObject({ exitCode: 0, stdout: '$HOME ; rm -rf x `id` "$@"\n' });
    const failed = await runProcess({ argv: sh('exit 7'), cwd: dir, env: {}, ledger: ledger() });
    expect(failed.exitCode).toBe(7);
  });

  it('does not run the program when recording fails, and rejects with that failure', async () => {
    const dir = tempDir();
    const full = Object.assign(new Error('no space left on /runs/x/processes.json'), { code: 'ORCH_NO_SPACE' });
    const record = ledger(() => {
      throw full;
    });
    await expect(runProcess({ argv: sh('touch ran'), cwd: dir, env: {}, ledger: record })).rejects.toBe(full);
    expect(existsSync(join(dir, 'ran'))).toBe(false);
    expect(record.events.filter((e) => e.startsWith('exited'))).toEqual([]);
  });

  it('reports a missing or non-executable program as a start error, as without a ledger', async () => {
    const dir = tempDir();
    await expect(runProcess({ argv: ['orchestra-no-such-program'], cwd: dir, env: process.env, ledger: ledger() })).rejects.toThrow(
      'cannot run "orchestra-no-such-program": not found (ENOENT)',
    );
    writeFileSync(join(dir, 'script'), '#!/bin/sh\necho hi\n'); // not executable
    await expect(runProcess({ argv: ['./script'], cwd: dir, env: {}, ledger: ledger() })).rejects.toThrow('cannot run "./script": permission denied (EACCES)');
    const missing = join(dir, 'missing');
    await expect(runProcess({ argv: ['/bin/sh'], cwd: missing, env: {}, ledger: ledger() })).rejects.toThrow(`its working directory "${missing}" does not exist (ENOENT)`);
  });

  it('never runs a program stopped while its record was being written', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const record = ledger(async () => {
      controller.abort();
      await new Promise((r) => setTimeout(r, 50));
    });
    const result = await runProcess({ argv: sh('touch ran'), cwd: dir, env: {}, signal: controller.signal, ledger: record });
    expect(result.aborted).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('still stops the whole group on timeout, and forgets it', async () => {
    const dir = tempDir();
    const record = ledger();
    const result = await runProcess({ argv: sh('sleep 30 & echo $! > child.pid; wait'), cwd: dir, env: process.env, timeoutMs: 300, ledger: record });
    expect(result.timedOut).toBe(true);
    expect(await waitFor(() => isGone(Number(readFileSync(join(dir, 'child.pid'), 'utf8'))))).toBe(true);
    expect(record.events.at(-1)).toMatch(/^exited \d+$/);
  });
});
