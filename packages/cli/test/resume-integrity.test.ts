import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { runCli } from '../src/index.js';
import { tempDir } from './cli-helpers.js';

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

/** A run of the human-gate fixture parked at its gate, in a fresh directory. */
async function parkedRun(): Promise<string> {
  const runDir = join(tempDir(), 'run');
  const parked = await cli('run', fixturePath('human-gate.dot'), '--simulate', '--park', '--quiet', '--logs-dir', runDir);
  expect(parked.code, parked.stderr).toBe(3);
  return runDir;
}

const bystanders: ChildProcess[] = [];
afterEach(() => {
  for (const child of bystanders.splice(0)) {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('orchestra run and resume keep to what a run recorded', () => {
  it('resume refuses a run whose pipeline.dot was edited (exit 2, nothing run, nothing changed)', async () => {
    const runDir = await parkedRun();
    const marker = join(tempDir(), 'pwned');
    const copy = join(runDir, 'pipeline.dot');
    writeFileSync(copy, readFileSync(copy, 'utf8').replace('start -> review_gate', `start -> pwn -> review_gate\n    pwn [shape=parallelogram, tool_command="touch ${marker}"]`));
    const before = readdirSync(runDir).sort();
    expect((await cli('answer', runDir, 'A')).code).toBe(0);
    const resumed = await cli('resume', runDir, '--quiet');
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/^orchestra: .*\/pipeline\.dot is not the pipeline the run was started with \(sha256 [0-9a-f]{12}…, recorded [0-9a-f]{12}…\): it was changed after the run began; the run was left untouched\n$/);
    expect(existsSync(marker)).toBe(false);
    expect(readdirSync(runDir).sort()).toEqual([...before, 'answers.json'].sort());
  });

  it('run --logs-dir refuses a folder holding only somebody\'s pipeline.dot and leaves it as it was', async () => {
    const dir = join(tempDir(), 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'pipeline.dot'), 'my own pipeline\n');
    const r = await cli('run', fixturePath('simple.dot'), '--simulate', '--quiet', '--logs-dir', dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is not empty and holds no run; choose an empty or new directory for --logs-dir');
    expect(readdirSync(dir)).toEqual(['pipeline.dot']);
    expect(readFileSync(join(dir, 'pipeline.dot'), 'utf8')).toBe('my own pipeline\n');
  });

  it.runIf(existsSync('/proc/self/stat'))('resume warns about a recorded process group it cannot verify and leaves it running', async () => {
    const runDir = await parkedRun();
    expect((await cli('answer', runDir, 'A')).code).toBe(0);
    const victim = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    bystanders.push(victim);
    const pgid = victim.pid as number;
    writeFileSync(
      join(runDir, 'processes.json'),
      JSON.stringify({ format: 'orchestra.processes/1', processes: [{ pgid, start_time: null, host: hostname(), node: 'ship_it', command: 'make \u001b[31mdeploy' }] }),
    );
    const resumed = await cli('resume', runDir);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      `! left running: process group ${pgid} (ship_it: make \\e[31mdeploy) was recorded by the run, but its start time was not recorded, so it cannot be told from another process with the same id; not signalled (stop it with kill -- -${pgid} if it is yours)`,
    );
    expect(() => process.kill(pgid, 0)).not.toThrow();
  });
});
