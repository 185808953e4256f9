import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from './cli-helpers.js';
import { cli, cliWith, type CliResult } from './in-process.js';

/** Runs orchestra with `input` on its stdin; `keepOpen` leaves stdin open (for timeouts). */
function withInput(args: string[], input: string, keepOpen = false): Promise<CliResult> {
  return cliWith(args, { input, keepInputOpen: keepOpen });
}

describe('human gates from the CLI (black box)', () => {
  it('--auto-approve takes the first choice and lists the decision in the summary', async () => {
    const r = await cli('run', 'fixtures/human-gate.dot', '--simulate', '--auto-approve', '--quiet', '--logs-dir', join(tempDir(), 'r'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('human: review_gate: Review Changes → [A] Approve');
  });

  it('--answers answers gates in order; a malformed file is refused before the run, naming the entry', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(['F', { value: 'A' }]));
    const r = await cli('run', 'fixtures/human-gate.dot', '--simulate', '--answers', join(dir, 'answers.json'), '--quiet', '--logs-dir', join(dir, 'r'));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('→ [F] Fix');
    expect(r.stdout).toContain('→ [A] Approve');
    expect(readFileSync(join(dir, 'r', 'interviews.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);

    writeFileSync(join(dir, 'bad.json'), JSON.stringify(['A', 42]));
    const bad = await cli('run', 'fixtures/human-gate.dot', '--simulate', '--answers', join(dir, 'bad.json'), '--logs-dir', join(dir, 'r2'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('entry 2 (42) must be a string or {"value": "...", "text": "..."}');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--answers', join(dir, 'none.json'))).code).toBe(2);
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--answers', join(dir, 'bad.json'), '--auto-approve')).code).toBe(2);
  });

  it('the console asks on stderr, re-asks after a wrong key, and routes on the right one', async () => {
    const r = await withInput(['run', 'fixtures/human-gate.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'r')], 'x\nf\na\n');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[?] Review Changes\n  [A] Approve\n  [F] Fix\nSelect: ');
    expect(r.stderr).toContain('"x" is not a choice: answer with A, F');
    expect(r.stdout).toContain('→ [F] Fix');
    expect(r.stdout).toContain('→ [A] Approve');
  });

  it('without an answer (stdin at end) the run parks (exit 3) with a message naming both flags, never a hang', async () => {
    const r = await withInput(['run', 'fixtures/human-gate.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'r')], '');
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('pass --auto-approve (the first choice at every gate) or --answers <file.json>');
  });

  it('a console timeout takes human.default_choice', async () => {
    const dir = tempDir();
    const file = join(dir, 'timed.dot');
    writeFileSync(
      file,
      'digraph T { start [shape=Mdiamond]; exit [shape=Msquare]\n gate [shape=hexagon, label="Deploy?", human.timeout="1s", human.default_choice=hold]\n go [prompt="go"]; hold [prompt="hold"]\n start -> gate\n gate -> go [label="[G] Go"]\n gate -> hold [label="[H] Hold"]\n go -> exit; hold -> exit }\n',
    );
    const r = await withInput(['run', file, '--simulate', '--quiet', '--logs-dir', join(dir, 'r')], '', true);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('(waiting up to 1s, then Hold)');
    expect(r.stderr).toContain('no answer in time: Hold');
    expect(r.stdout).toContain('→ [H] Hold');
  }, 20_000);
});

describe('--answers across an interruption', () => {
  it('resume skips the answers the run already used', async () => {
    const dir = tempDir();
    const file = join(dir, 'two.dot');
    // `wait` sleeps only the first time it runs: long enough to be interrupted in, and not again on resume.
    const waited = join(dir, 'waited');
    writeFileSync(
      file,
      `digraph Two { start [shape=Mdiamond]; exit [shape=Msquare]\n g1 [shape=hexagon, label="First?"]\n wait [shape=parallelogram, tool_command="test -e ${waited} || { touch ${waited}; sleep 10; }"]\n g2 [shape=hexagon, label="Second?"]\n a [prompt="a"]; b [prompt="b"]\n start -> g1\n g1 -> wait [label="[Y] Yes"]\n g1 -> a [label="[N] No"]\n wait -> g2\n g2 -> b [label="[Y] Yes"]\n g2 -> a [label="[N] No"]\n a -> exit; b -> exit }\n`,
    );
    writeFileSync(join(dir, 'answers.json'), JSON.stringify(['Y', 'N']));
    const runDir = join(dir, 'r');
    const child = spawn(process.execPath, [BIN, 'run', file, '--simulate', '--answers', join(dir, 'answers.json'), '--quiet', '--logs-dir', runDir], { cwd: ROOT });
    let exited = false;
    const done = new Promise((r) => child.on('close', r)).finally(() => (exited = true));
    // Interrupt the run while `wait` sleeps, once g1 has completed with the first answer. If that
    // does not happen in time there is nothing for resume to skip: fail rather than test something else.
    const g1Done = () => {
      try {
        return readFileSync(join(runDir, 'journal.jsonl'), 'utf8').includes('"node":"g1"');
      } catch {
        return false; // not yet
      }
    };
    const sleeping = () => g1Done() && existsSync(waited);
    const until = Date.now() + 15_000;
    while (!sleeping() && !exited && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    if (!sleeping()) {
      child.kill('SIGKILL');
      await done;
      throw new Error(exited ? 'the run ended before g1 was recorded and wait started' : 'g1 was not recorded and wait started within 15 s');
    }
    child.kill('SIGINT');
    await done;
    // The interruption came between the gates: g1 answered (Y), g2 not asked yet.
    const interrupted = JSON.parse(readFileSync(join(runDir, 'checkpoint.json'), 'utf8')) as { status: string; completed_nodes: string[] };
    expect(interrupted.status).toBe('interrupted');
    expect(interrupted.completed_nodes).toEqual(['start', 'g1']);
    expect(readFileSync(join(runDir, 'interviews.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    const resumed = await cli('resume', runDir, '--simulate', '--answers', join(dir, 'answers.json'), '--quiet');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('human: g2: Second? → [N] No');
    const checkpoint = JSON.parse(readFileSync(join(runDir, 'checkpoint.json'), 'utf8')) as { completed_nodes: string[] };
    expect(checkpoint.completed_nodes).toEqual(['start', 'g1', 'wait', 'g2', 'a', 'exit']);
  }, 30_000);
});
