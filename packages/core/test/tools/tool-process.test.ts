import { openFileStream } from '../../src/run/file-stage-store.js';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GATE_CLOSED_EXIT,
  GATE_LINE,
  GATE_SCRIPT,
  KILL_GRACE_MS,
  runToolProcess,
  type ToolProcessOptions,
} from '../../src/handlers/tool-process.js';
import { isProcessAlive, processStartTime } from '../../src/os/process-identity.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-tools-'));
  dirs.push(dir);
  return dir;
}

function options(dir: string, command: string, extra: Partial<ToolProcessOptions> = {}): ToolProcessOptions {
  return {
    command,
    cwd: dir,
    env: process.env,
    signal: new AbortController().signal,
    stdout: { open: () => openFileStream(dir, 'stdout.log'), name: join(dir, 'stdout.log') },
    stderr: { open: () => openFileStream(dir, 'stderr.log'), name: join(dir, 'stderr.log') },
    stdoutHeadBytes: 1024,
    stderrTailBytes: 100,
    ...extra,
  };
}

describe('runToolProcess: the start gate', () => {
  it('calls beforeStart with the PID of the group before the command has run', async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    const seen: { pid: number; markerThen: boolean; startTime: string | undefined }[] = [];
    const exited: number[] = [];
    const result = await runToolProcess(
      options(dir, `touch '${marker}'; echo $$`, {
        beforeStart: async (pid) => {
          await sleep(150); // the command must still be waiting
          seen.push({ pid, markerThen: existsSync(marker), startTime: processStartTime(pid) });
        },
        afterExit: (pid) => {
          exited.push(pid);
        },
      }),
    );
    expect(exited).toEqual([seen[0]?.pid]);
    expect(result.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.markerThen).toBe(false);
    // The gate execs the command's shell: the PID given is the command's own (and its group's).
    expect(result.stdout.text()).toBe(`${seen[0]?.pid}\n`);
    if (process.platform === 'linux') expect(seen[0]?.startTime).toMatch(/^\d+$/);
  });

  it('does not run the command and rejects when beforeStart throws', async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    const refused = new Error('could not record the process');
    let pid = 0;
    await expect(
      runToolProcess(
        options(dir, `touch '${marker}'`, {
          beforeStart: (p) => {
            pid = p;
            throw refused;
          },
          afterExit: () => {
            throw new Error('afterExit must not be called for a command that never started');
          },
        }),
      ),
    ).rejects.toBe(refused);
    expect(pid).toBeGreaterThan(0);
    await sleep(200);
    expect(existsSync(marker)).toBe(false);
    expect(() => process.kill(pid, 0)).toThrow();
  });

  it('does not start the command when the signal is already aborted', async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    const controller = new AbortController();
    controller.abort();
    const result = await runToolProcess(options(dir, `touch '${marker}'`, { signal: controller.signal }));
    expect(result.aborted).toBe(true);
    await sleep(100);
    expect(existsSync(marker)).toBe(false);
  });

  it('exits without running the command when fd 3 ends without the start line (orchestra died)', async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    for (const closeWith of ['', 'wrong\n']) {
      const child = spawn('/bin/sh', ['-c', GATE_SCRIPT, 'orchestra-tool', `touch '${marker}'`], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
      const code = new Promise((resolve) => child.once('exit', resolve));
      await sleep(50);
      (child.stdio[3] as NodeJS.WritableStream).end(closeWith);
      expect(await code).toBe(GATE_CLOSED_EXIT);
      expect(existsSync(marker)).toBe(false);
    }
  });

  it('passes the command as data, never as part of the gate script', async () => {
    const dir = tempDir();
    const result = await runToolProcess(options(dir, `printf '%s\\n' "$0" '"$1"' "$#"`));
    expect(result.stdout.text()).toBe('/bin/sh\n"$1"\n0\n');
    const child = spawn('/bin/sh', ['-c', GATE_SCRIPT, 'orchestra-tool', 'exit 7'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
    (child.stdio[3] as NodeJS.WritableStream).end(GATE_LINE);
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(7);
  });

  it('does not leave the gate open to the command (fd 3 is closed)', async () => {
    const dir = tempDir();
    const result = await runToolProcess(options(dir, 'if { true >&3; } 2>/dev/null; then echo open; else echo closed; fi'));
    expect(result.stdout.text()).toBe('closed\n');
  });
});

describe('runToolProcess: output', () => {
  it('writes the output files byte for byte and keeps a bounded head and tail', async () => {
    const dir = tempDir();
    const result = await runToolProcess(options(dir, 'head -c 300000 /dev/urandom; head -c 5000 /dev/zero | tr "\\0" e >&2; printf "\\nEND" >&2'));
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'stdout.log')).length).toBe(300000);
    expect(readFileSync(join(dir, 'stderr.log')).length).toBe(5004);
    expect(result.stdout.total).toBe(300000);
    expect(result.stdout.truncated).toBe(true);
    expect(result.stderr.text()).toBe(`${'e'.repeat(96)}\nEND`);
  });

  it('resolves when the shell exits although a background job holds its pipes', async () => {
    const dir = tempDir();
    const started = performance.now();
    const result = await runToolProcess(options(dir, `sleep 30 & echo $! > '${join(dir, 'bg')}'; echo started`));
    const elapsed = performance.now() - started;
    const bg = Number(readFileSync(join(dir, 'bg'), 'utf8'));
    process.kill(bg, 'SIGKILL');
    expect(elapsed).toBeLessThan(5000);
    expect(result.code).toBe(0);
    expect(result.stdout.text()).toBe('started\n');
  });
});

describe('runToolProcess: stopping', () => {
  it('kills the group and resolves on abort although a process that left the group holds the pipes', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const escapedFile = join(dir, 'escaped');
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const result = await runToolProcess(
      options(dir, `setsid sh -c 'echo $$ > "$1"; exec sleep 30' sh '${escapedFile}' & echo $$ > '${join(dir, 'shell')}'; exec sleep 30`, {
        signal: controller.signal,
      }),
    );
    const elapsed = performance.now() - started;
    const escaped = Number(readFileSync(escapedFile, 'utf8'));
    process.kill(escaped, 'SIGKILL');
    expect(elapsed).toBeLessThan(2000);
    expect(result.aborted).toBe(true);
    const shell = Number(readFileSync(join(dir, 'shell'), 'utf8'));
    expect(() => process.kill(shell, 0)).toThrow();
  });
});

describe.runIf(existsSync('/proc/self/stat'))('runToolProcess: stopping a command that ignores SIGTERM', () => {
  it('SIGKILLs its whole group once KILL_GRACE_MS has passed', async () => {
    const dir = tempDir();
    const controller = new AbortController();
    const running = runToolProcess(options(dir, 'trap "" TERM; sleep 30 & echo $! > child.pid; wait; wait', { signal: controller.signal }));
    const childFile = join(dir, 'child.pid');
    for (let i = 0; i < 500 && !(existsSync(childFile) && readFileSync(childFile, 'utf8').trim()); i++) await sleep(10);
    const child = Number(readFileSync(childFile, 'utf8'));
    const before = performance.now();
    controller.abort();
    const result = await running;
    expect(performance.now() - before).toBeGreaterThanOrEqual(KILL_GRACE_MS - 50);
    expect(result).toMatchObject({ aborted: true, code: null, signal: 'SIGKILL' });
    expect(isProcessAlive(child, null)).toBe(false); // a zombie (exited, not yet reaped) does not count
  }, 15_000);
});

describe('processStartTime', () => {
  it.runIf(process.platform === 'linux')('reads the start time of a process, and nothing for a missing one', () => {
    expect(processStartTime(process.pid)).toMatch(/^\d+$/);
    expect(processStartTime(process.pid)).toBe(processStartTime(process.pid));
    expect(processStartTime(2 ** 30)).toBeUndefined();
  });

  it.runIf(process.platform === 'linux')('reads past a command name with spaces and parentheses', async () => {
    const child = spawn('/bin/sh', ['-c', 'read go; printf "a) b (c" > /proc/self/comm; echo ready; sleep 5'], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const pid = child.pid as number;
      const before = processStartTime(pid);
      expect(before).toMatch(/^\d+$/);
      const ready = new Promise((resolve) => child.stdout.once('data', resolve));
      child.stdin.end('go\n');
      await ready;
      expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toContain('(a) b (c)');
      expect(processStartTime(pid)).toBe(before);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
