import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostName, processStartTime } from '../../src/os/process-identity.js';
import { checkGroup, stopProcessGroups } from '../../src/os/stop-process-groups.js';
import { resumePipeline, type Handler, type RunEvent } from '../../src/index.js';
import { dot, eventsOf, registryWith, run, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const hasProc = existsSync('/proc/self/stat');
const started: ChildProcess[] = [];

/** A process leading its own group (as tool commands are started), which is not the run's. */
function bystander(command = 'sleep 30'): number {
  const child = spawn('sh', ['-c', command], { detached: true, stdio: 'ignore' });
  started.push(child);
  return child.pid as number;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
}

afterEach(() => {
  for (const child of started.splice(0)) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe.runIf(hasProc)('recorded process groups are signalled only when they are verifiably the ones started', () => {
  it('a record without a start time, with another start time, or from another host is reported and left running', async () => {
    const pid = bystander();
    await until(() => processStartTime(pid) !== undefined);
    const startTime = processStartTime(pid) as string;
    const records = [
      { pgid: pid, start_time: null, host: hostName(), node: 'a', command: 'x' },
      { pgid: pid, start_time: `${startTime}1`, host: hostName(), node: 'b', command: 'x' },
      { pgid: pid, start_time: startTime, host: 'elsewhere.example', node: 'c', command: 'x' },
    ];
    const { stopped, unverified } = await stopProcessGroups(records, 200);
    expect(stopped).toEqual([]);
    expect(unverified.map((u) => [u.node, u.reason])).toEqual([
      ['a', expect.stringContaining('start time was not recorded')],
      ['b', expect.stringContaining('belongs to another process')],
      ['c', expect.stringContaining('started on host elsewhere.example')],
    ]);
    expect(alive(pid)).toBe(true);
    // The record that matches is stopped.
    expect(checkGroup({ pgid: pid, start_time: startTime, host: hostName() })).toEqual({ kind: 'same' });
    const matching = await stopProcessGroups([{ pgid: pid, start_time: startTime, host: hostName() }], 200);
    expect(matching.stopped).toHaveLength(1);
    await until(() => checkGroup({ pgid: pid, start_time: startTime, host: hostName() }).kind === 'gone');
  });

  it('a group whose leader has exited is reported, not signalled', async () => {
    const leader = bystander('sleep 30 & echo $! > /dev/null; exit 0');
    const startTime = processStartTime(leader) ?? '0';
    await until(() => checkGroup({ pgid: leader, start_time: startTime, host: hostName() }).kind === 'unverified');
    const { stopped, unverified } = await stopProcessGroups([{ pgid: leader, start_time: startTime, host: hostName() }], 200);
    expect(stopped).toEqual([]);
    expect(unverified[0]?.reason).toContain('its leader has exited');
  });

  it('resume leaves a process named in a hand-edited processes.json alone and reports it', async () => {
    const source = dot('  a [type="s"]\n  b [type="s"]\n  start -> a -> b -> exit');
    const controller = new AbortController();
    const stopAtB: Handler = {
      execute(input) {
        if (input.node.id === 'b' && !controller.signal.aborted) {
          controller.abort();
          return untilAborted(input.signal);
        }
        return { status: 'success' };
      },
    };
    const { logsRoot, result } = await run(source, { handlers: { s: stopAtB }, signal: controller.signal, source });
    expect(result.status).toBe('interrupted');
    const victim = bystander();
    await until(() => processStartTime(victim) !== undefined);
    writeFileSync(
      join(logsRoot, 'processes.json'),
      JSON.stringify({ format: 'orchestra.processes/1', processes: [{ pgid: victim, start_time: null, host: hostName(), node: 'b', command: 'make' }] }),
    );
    const events: RunEvent[] = [];
    const resumed = await resumePipeline(logsRoot, { registry: registryWith({ s: { execute: () => ({ status: 'success' }) } }), onEvent: (e) => events.push(e) });
    expect(resumed.status).toBe('success');
    expect(alive(victim)).toBe(true);
    expect(eventsOf(events, 'run.orphans_stopped')).toEqual([]);
    expect(eventsOf(events, 'run.orphans_unverified')).toEqual([
      expect.objectContaining({ processes: [{ pgid: victim, node: 'b', command: 'make', reason: expect.stringContaining('start time was not recorded') }] }),
    ]);
    expect(readFileSync(join(logsRoot, 'events.jsonl'), 'utf8')).toContain('"type":"run.orphans_unverified"');
    expect(existsSync(join(logsRoot, 'processes.json'))).toBe(false);
  });
});
