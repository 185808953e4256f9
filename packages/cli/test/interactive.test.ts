import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCheckpoint } from '@orchestra/core/store';
import { converse, tempDir } from './cli-helpers.js';
import { cli, cliWith, type CliResult } from './in-process.js';

/** Runs orchestra with all of `input` on stdin. */
function withInput(args: string[], input: string): Promise<CliResult> {
  return cliWith(args, { input });
}

interface Event {
  type: string;
  turn?: number;
  replayed?: boolean;
  mode?: string;
}

function eventsIn(runDir: string): Event[] {
  return readFileSync(join(runDir, 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Event);
}

/** The agent message shown for `turn`, as the console printed it (the indented block after the header). */
function agentMessage(stderr: string, turn: number): string {
  const header = `[refine] agent, turn ${turn}:\n`;
  const start = stderr.lastIndexOf(header);
  expect(start, `turn ${turn} shown`).toBeGreaterThan(-1);
  return stderr.slice(start + header.length).split('\n')[0] as string;
}

describe('interactive nodes from the CLI (black box)', () => {
  it('killed after the second human turn, resume continues at turn three with the model called no extra time', async () => {
    const dir = tempDir();
    const whole = join(dir, 'whole');
    const uninterrupted = await withInput(['run', 'fixtures/interactive.dot', '--simulate', '--logs-dir', whole], 'make it smaller\nand cheaper\n/done\n');
    expect(uninterrupted.code).toBe(0);

    const killed = join(dir, 'killed');
    const session = converse(['run', 'fixtures/interactive.dot', '--simulate', '--logs-dir', killed]);
    await session.waitFor('[refine] agent, turn 1:');
    session.child.stdin.write('make it smaller\n');
    await session.waitFor('[refine] agent, turn 2:');
    session.child.stdin.write('and cheaper\n');
    await session.waitFor('[refine] agent, turn 3:');
    const shownBeforeKill = agentMessage(session.output().stderr, 3);
    session.child.kill('SIGKILL');
    expect((await session.done).signal).toBe('SIGKILL');
    expect(readCheckpoint(killed).node_progress).toMatchObject({ refine: { turns: [{ human: 'make it smaller' }, { human: 'and cheaper' }] } });

    const resumed = await withInput(['resume', killed, '--simulate'], '/done\n');
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain('resuming the conversation at turn 3: 2 earlier turn(s) restored without calling the model');
    expect(resumed.stderr).not.toContain('agent, turn 1:');
    expect(agentMessage(resumed.stderr, 3)).toBe(shownBeforeKill);
    expect(resumed.stdout).toContain('human: refine, turn 3: "/done"');

    // The model answered three times over both runs, as in the uninterrupted run, and nothing was replayed.
    const replies = (runDir: string) => eventsIn(runDir).filter((e) => e.type === 'conversation.reply');
    expect(replies(killed).map((e) => [e.turn, e.replayed])).toEqual(replies(whole).map((e) => [e.turn, e.replayed]));
    expect(replies(killed)).toHaveLength(3);
    expect(eventsIn(killed).filter((e) => e.type === 'conversation.resumed')).toEqual([expect.objectContaining({ mode: 'restored' })]);
    expect(readFileSync(join(killed, 'refine', 'conversation.md'), 'utf8')).toBe(readFileSync(join(whole, 'refine', 'conversation.md'), 'utf8'));
    expect(readCheckpoint(killed).completed_nodes).toEqual(readCheckpoint(whole).completed_nodes);
    expect(readCheckpoint(killed).context).toEqual(readCheckpoint(whole).context);
  }, 60_000);

  it('/reject goes back to the draft; input ending mid-conversation parks the run with the hint, never a loop', async () => {
    const runDir = join(tempDir(), 'r');
    const r = await withInput(['run', 'fixtures/interactive.dot', '--simulate', '--logs-dir', runDir], 'make it smaller\n/reject too big\n');
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('failed: rejected by the human at turn 2: too big');
    expect(r.stderr).toContain('standard input ended before a human answered a reply to refine (turn 1 of its conversation');
    expect(r.stderr).toContain(`orchestra answer ${runDir} /done`);
    expect(r.stderr).toContain('pass --auto-approve (the first choice at every gate) or --answers <file.json>');
    expect(readCheckpoint(runDir)).toMatchObject({ status: 'parked', next_node: 'refine' });
  }, 30_000);

  it('human.timeout: an unanswered turn is asked again on retry without a resume notice, then the node fails', async () => {
    const dir = tempDir();
    const file = join(dir, 'chat-timeout.dot');
    writeFileSync(file, 'digraph T { start [shape=Mdiamond]; exit [shape=Msquare]\n talk [agent.mode="interactive", prompt="Say hello", human.timeout="1s", max_retries=1]\n start -> talk -> exit }\n');
    // stdin stays open: only the timeout ends each wait
    const { code, stdout, stderr } = await cliWith(['run', file, '--simulate', '--logs-dir', join(dir, 'r')], { keepInputOpen: true });
    expect(code).toBe(1);
    expect(stderr.match(/\[talk\] agent, turn 1:/g)).toHaveLength(2);
    expect(stderr).toContain('(waiting up to 1s)');
    expect(stderr).not.toContain('resuming the conversation');
    expect(stdout).toContain('failed, will retry: no reply for talk within 1s');
    expect(stdout).toContain('human: talk, turn 1: no answer in time');
  }, 30_000);

  it('--auto-approve ends each conversation with /approve; --answers scripts messages and commands', async () => {
    const dir = tempDir();
    const auto = await cli('run', 'fixtures/interactive.dot', '--simulate', '--auto-approve', '--quiet', '--logs-dir', join(dir, 'auto'));
    expect(auto.code).toBe(0);
    expect(auto.stdout).toContain('human: refine, turn 1: "/approve"');

    writeFileSync(join(dir, 'answers.json'), JSON.stringify(['make it smaller', '/reject', { value: '/done', text: '/done' }]));
    const scripted = await cli('run', 'fixtures/interactive.dot', '--simulate', '--answers', join(dir, 'answers.json'), '--quiet', '--logs-dir', join(dir, 'scripted'));
    expect(scripted.code).toBe(0);
    expect(readCheckpoint(join(dir, 'scripted')).completed_nodes).toEqual(['start', 'draft', 'refine', 'draft', 'refine', 'publish', 'exit']);
  });

  it('a parked conversation is answered turn by turn by other commands and ends as an answered run', async () => {
    const dir = tempDir();
    const parked = join(dir, 'parked');
    expect((await cli('run', 'fixtures/interactive.dot', '--simulate', '--park', '--quiet', '--logs-dir', parked)).code).toBe(3);
    const status = await cli('status', parked);
    expect(status.stdout).toContain('waiting for a reply to refine, turn 1 of its conversation; the agent said:\n    [Simulated] Reply 1 for stage: refine');
    expect(status.stdout).toContain('reply with text for the agent, or /done, /approve, /reject');

    const empty = await cli('answer', parked, '  ');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('an empty reply cannot be sent to the agent of refine');
    expect((await cli('answer', parked, 'make it smaller')).code).toBe(0);
    expect((await cli('resume', parked, '--simulate', '--park', '--quiet')).code).toBe(3);
    const second = await cli('status', parked);
    expect(second.stdout).toContain('conversation in refine: 1 human turn(s) so far');
    expect(second.stdout).toContain('turn 2 of its conversation');

    expect((await cli('answer', parked, '/done')).code).toBe(0);
    expect((await cli('resume', parked, '--simulate', '--park', '--quiet')).code).toBe(0);

    const answered = join(dir, 'answered');
    expect((await cli('run', 'fixtures/interactive.dot', '--simulate', '--answers', writeAnswers(dir, ['make it smaller', '/done']), '--quiet', '--logs-dir', answered)).code).toBe(0);
    expect(readCheckpoint(parked).context).toEqual(readCheckpoint(answered).context);
    expect(readFileSync(join(parked, 'refine', 'conversation.md'), 'utf8')).toBe(readFileSync(join(answered, 'refine', 'conversation.md'), 'utf8'));
  }, 30_000);
});

function writeAnswers(dir: string, answers: string[]): string {
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  return file;
}
