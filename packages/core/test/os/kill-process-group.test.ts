import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { killProcessGroup, signalProcessGroup } from '../../src/os/kill-process-group.js';
import { hostName, isProcessAlive, procStat, processStartTime } from '../../src/os/process-identity.js';
import { stopProcessGroups } from '../../src/os/stop-process-groups.js';

const hasProc = existsSync('/proc/self/stat');
const started: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const child of started.splice(0)) signalProcessGroup(child.pid as number, 'SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-kill-'));
  dirs.push(dir);
  return dir;
}

/** Starts `command` as the leader of its own process group (as tool commands are started); its PID = the group id. */
function group(command: string, cwd: string): number {
  const child = spawn('/bin/sh', ['-c', command], { cwd, detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid as number;
}

/** Running: it exists and is not a zombie (exited, not yet reaped). */
const running = (pid: number) => isProcessAlive(pid, null);

/** The PID a command wrote to `file`, once it has. */
async function pidIn(file: string): Promise<number> {
  for (let i = 0; i < 500; i++) {
    const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    if (text) return Number(text);
    await sleep(10);
  }
  throw new Error(`${file} was never written`);
}

describe('signalProcessGroup', () => {
  it('signals nothing for an id that names no single group (0 is our own group, 1 would be every process)', () => {
    // Signal 0 only checks: were the guard missing, kill(0) or kill(-1) would succeed and say true.
    for (const pgid of [0, 1, -1, Number.NaN, 2.5]) expect(signalProcessGroup(pgid, 0)).toBe(false);
  });

  it('says whether the group was there to signal', async () => {
    const dir = tempDir();
    // One process, our child: once node has reaped it nothing of the group is left, not even a zombie.
    const pgid = group('exec sleep 30', dir);
    const exited = new Promise((resolve) => started.at(-1)?.once('exit', resolve));
    expect(signalProcessGroup(pgid, 0)).toBe(true);
    expect(signalProcessGroup(pgid, 'SIGKILL')).toBe(true);
    await exited; // and reaped: no zombie left to signal
    expect(signalProcessGroup(pgid, 0)).toBe(false);
  });
});

describe.runIf(hasProc)('killProcessGroup', () => {
  it('stops every member of a group that ends at SIGTERM, without waiting out the grace', async () => {
    const dir = tempDir();
    const pgid = group('sleep 30 & echo $! > child.pid; wait', dir);
    const child = await pidIn(join(dir, 'child.pid'));
    const before = performance.now();
    expect(await killProcessGroup(pgid, { graceMs: 20_000 })).toBe(true);
    expect(performance.now() - before).toBeLessThan(10_000);
    // Gone when the promise resolves, not some time later.
    expect(running(pgid)).toBe(false);
    expect(running(child)).toBe(false);
  });

  it('SIGKILLs a group that ignores SIGTERM once the grace has passed', async () => {
    const dir = tempDir();
    const pgid = group('trap "" TERM; sleep 30 & echo $! > child.pid; wait; wait', dir);
    const child = await pidIn(join(dir, 'child.pid'));
    const before = performance.now();
    expect(await killProcessGroup(pgid, { graceMs: 300 })).toBe(true);
    expect(performance.now() - before).toBeGreaterThanOrEqual(290);
    expect(running(pgid)).toBe(false);
    expect(running(child)).toBe(false);
  });

  it('does not count a zombie as alive: a group left with only one is stopped at once', async () => {
    const dir = tempDir();
    // The leader becomes `sleep 30`, which never reaps its child; the child leads a group of
    // its own (setsid), exits, and stays a zombie in that group.
    group(`setsid sh -c 'echo $$ > zombie.pid; exec sleep 0.1' & exec sleep 30`, dir);
    const zombie = await pidIn(join(dir, 'zombie.pid'));
    for (let i = 0; i < 500 && procStat(zombie)?.state !== 'Z'; i++) await sleep(10);
    expect(procStat(zombie)?.state).toBe('Z');
    const before = performance.now();
    expect(await killProcessGroup(zombie, { graceMs: 20_000 })).toBe(true);
    expect(performance.now() - before).toBeLessThan(10_000);
  });

  it('resolves true at once for a group that is gone', async () => {
    const dir = tempDir();
    const pgid = group('exit 0', dir);
    await new Promise((resolve) => started.at(-1)?.once('exit', resolve));
    const before = performance.now();
    expect(await killProcessGroup(pgid, { graceMs: 20_000 })).toBe(true);
    expect(performance.now() - before).toBeLessThan(1000);
  });
});

describe.runIf(hasProc)('stopProcessGroups', () => {
  it('SIGKILLs a verified group that ignores SIGTERM once the grace has passed', async () => {
    const dir = tempDir();
    const pgid = group('trap "" TERM; sleep 30 & echo $! > child.pid; wait; wait', dir);
    const child = await pidIn(join(dir, 'child.pid'));
    const record = { pgid, start_time: processStartTime(pgid) ?? null, host: hostName() };
    const { stopped, unverified } = await stopProcessGroups([record], 300);
    expect(unverified).toEqual([]);
    expect(stopped).toEqual([record]);
    expect(running(pgid)).toBe(false);
    expect(running(child)).toBe(false);
  });
});
