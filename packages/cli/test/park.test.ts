import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { tempDir } from './cli-helpers.js';
import { cli } from './in-process.js';

describe('durable waits: --park, orchestra answer, orchestra status (black box)', () => {
  it('parks at a gate (exit 3), refuses a wrong answer, and resumes to the same result as an answered run', async () => {
    const dir = tempDir();
    const parked = join(dir, 'parked');
    const first = await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', parked);
    expect(first.code).toBe(3);
    expect(first.stdout).toContain('… parked, waiting for a human');
    expect(first.stderr).toContain(`Answer with one of [A] Approve, [F] Fix:\n  orchestra answer ${parked} A\n  orchestra answer ${parked} F\nthen continue:\n  orchestra resume ${parked}\n`);
    expect(first.stderr).not.toContain('--auto-approve'); // parked on purpose: no advice for unattended runs
    const pending = JSON.parse(readFileSync(join(parked, 'pending-questions.json'), 'utf8'));
    expect(pending.questions).toEqual([
      expect.objectContaining({ id: 'review_gate', question: expect.objectContaining({ text: 'Review Changes', options: [{ key: 'A', label: 'Approve' }, { key: 'F', label: 'Fix' }] }) }),
    ]);
    expect(readCheckpoint(parked)).toMatchObject({ status: 'parked', next_node: 'review_gate', completed_nodes: ['start'] });

    const status = await cli('status', parked);
    expect(status.code).toBe(3); // status exits 3 for a parked run
    expect(status.stdout).toContain('Review: parked');
    expect(status.stdout).toContain('waiting for an answer to review_gate: Review Changes');

    // Another command answers; a wrong answer is refused and changes nothing.
    const wrong = await cli('answer', parked, 'maybe');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('"maybe" is not a choice of review_gate: answer with A (Approve), F (Fix)');
    expect(existsSync(join(parked, 'answers.json'))).toBe(false);
    expect(readCheckpoint(parked).status).toBe('parked');

    expect((await cli('answer', parked, 'F')).code).toBe(0);
    const again = await cli('resume', parked, '--simulate', '--park', '--quiet');
    expect(again.code).toBe(3); // the loop comes back to the gate: parked again
    expect((await cli('answer', parked, 'approve')).code).toBe(0);
    const done = await cli('resume', parked, '--simulate', '--park', '--quiet');
    expect(done.code).toBe(0);
    expect((await cli('answer', parked, 'A')).code).toBe(2); // nothing pending any more

    const answered = join(dir, 'answered');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--answers', writeAnswers(dir, ['F', 'A']), '--quiet', '--logs-dir', answered)).code).toBe(0);
    const a = readCheckpoint(parked);
    const b = readCheckpoint(answered);
    expect(a.completed_nodes).toEqual(b.completed_nodes);
    expect(a.context).toEqual(b.context);
  }, 30_000);
});

function writeAnswers(dir: string, answers: string[]): string {
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  return file;
}

describe('orchestra answer with a damaged answers file', () => {
  it('refuses with exit 2 and a clear message, never a stack trace', async () => {
    const dir = join(tempDir(), 'parked');
    expect((await cli('run', 'fixtures/human-gate.dot', '--simulate', '--park', '--quiet', '--logs-dir', dir)).code).toBe(3);
    writeFileSync(join(dir, 'answers.json'), '{"format": "orch');
    const r = await cli('answer', dir, 'A');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('answers.json is corrupt or truncated (not valid JSON); it was left untouched');
    expect(readFileSync(join(dir, 'answers.json'), 'utf8')).toBe('{"format": "orch');
  });
});
