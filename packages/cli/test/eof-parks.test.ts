import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { shellQuote } from '../src/shell-quote.js';
import { BIN, ROOT, plainEnv, tempDir } from './cli-helpers.js';
import { cli, type CliResult } from './in-process.js';

type Result = { code: number | null; stdout: string; stderr: string };

/** Runs `orchestra` with standard input at its end (as in CI: nobody can answer). */
function withoutInput(...args: string[]): Promise<CliResult> {
  return cli(...args);
}

/** Pastes a printed command line into `sh`, where `orchestra` runs this checkout's launcher. */
function paste(line: string): Result {
  const orchestra = `orchestra() { ${shellQuote(process.execPath)} ${shellQuote(BIN)} "$@"; }`;
  const r = spawnSync('sh', ['-c', `${orchestra}\n${line}`], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: plainEnv() });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The printed command lines that start with `prefix` (indentation dropped). */
function commands(stderr: string, prefix: string): string[] {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith(prefix));
}

describe('end of input at a console question parks the run (black box)', () => {
  it('a gate with stdin closed exits 3 with the question pending; the printed answer and resume commands, pasted, finish the run', async () => {
    // A run directory whose path needs quoting: the printed commands must still paste as they are.
    const runDir = join(tempDir(), "it's a run");
    const parked = await withoutInput('run', 'fixtures/human-gate.dot', '--simulate', '--logs-dir', runDir);
    expect(parked.code).toBe(3);
    expect(parked.stdout).toContain('… parked, waiting for a human');
    expect(parked.stderr).toContain('input ended: the run parks until this is answered');
    expect(parked.stderr).toContain('standard input ended before a human answered Review Changes (review_gate); the run is parked, not failed.');
    expect(parked.stderr).toContain('orchestra answer');
    expect(parked.stderr).toContain('--auto-approve');
    expect(parked.stderr).toContain('--answers <file.json>');
    expect(existsSync(join(runDir, 'pending-questions.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(runDir, 'pending-questions.json'), 'utf8')).questions).toEqual([expect.objectContaining({ id: 'review_gate' })]);
    expect(readCheckpoint(runDir)).toMatchObject({ status: 'parked', next_node: 'review_gate', completed_nodes: ['start'] });

    const quoted = shellQuote(runDir);
    expect(commands(parked.stderr, 'orchestra answer')).toEqual([`orchestra answer ${quoted} A`, `orchestra answer ${quoted} F`]);
    const [resume, unattended] = commands(parked.stderr, 'orchestra resume');
    expect(resume).toBe(`orchestra resume ${quoted}`);
    expect(unattended).toBe(`orchestra resume ${quoted} --auto-approve`);

    const answered = paste(`orchestra answer ${quoted} A`);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain(`continue with: orchestra resume ${quoted}`);
    const done = paste(resume as string);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('human: review_gate: Review Changes → [A] Approve');
    expect(readCheckpoint(runDir)).toMatchObject({ status: 'completed', completed_nodes: ['start', 'review_gate', 'ship_it', 'exit'] });
  }, 60_000);

  it('the printed unattended command (--auto-approve) continues a parked run without a human', async () => {
    const runDir = join(tempDir(), 'r');
    const parked = await withoutInput('run', 'fixtures/human-gate.dot', '--simulate', '--quiet', '--logs-dir', runDir);
    expect(parked.code).toBe(3);
    const unattended = commands(parked.stderr, 'orchestra resume').find((c) => c.endsWith('--auto-approve'));
    expect(unattended).toBeDefined();
    const done = paste(unattended as string);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('→ [A] Approve');
  }, 60_000);

  it('a gate with human.default_choice takes its default at end of input, and the run goes on', async () => {
    const dir = tempDir();
    const file = join(dir, 'default.dot');
    writeFileSync(
      file,
      'digraph D { start [shape=Mdiamond]; exit [shape=Msquare]\n gate [shape=hexagon, label="Deploy?", human.default_choice=hold]\n go [prompt="go"]; hold [prompt="hold"]\n start -> gate\n gate -> go [label="[G] Go"]\n gate -> hold [label="[H] Hold"]\n go -> exit; hold -> exit }\n',
    );
    const r = await withoutInput('run', file, '--simulate', '--quiet', '--logs-dir', join(dir, 'r'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('input ended: taking the default, Hold');
    expect(r.stdout).toContain('→ [H] Hold');
    expect(existsSync(join(dir, 'r', 'pending-questions.json'))).toBe(false);
  }, 30_000);
});
