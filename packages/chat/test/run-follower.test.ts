import { describe, expect, it } from 'vitest';
import { CallbackInterviewer, type Answer, type AskOptions, type Question } from '@orchestra/core';
import { followRun } from '../src/session/run-follower.js';
import type { RunQuestion } from '../src/session/run-port.js';
import { FakeRunPort } from './support/fake-run-port.js';

const question = (id: string, text = `question ${id}`): RunQuestion => ({
  id,
  node_id: `gate_${id}`,
  text,
  type: 'MULTIPLE_CHOICE',
  options: [
    { key: 'Y', label: 'Yes' },
    { key: 'N', label: 'No' },
  ],
});

/** Lets queued promise callbacks run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

function following(answer: (q: Question, options: AskOptions) => Answer | Promise<Answer>) {
  const port = new FakeRunPort();
  port.stopAtOnce = false;
  const asked: Question[] = [];
  const interviewer = new CallbackInterviewer((q, options) => {
    asked.push(q);
    return answer(q, options);
  });
  const followed = followRun(port, interviewer, 'r1');
  return { port, asked, followed };
}

describe('followRun', () => {
  it("asks each of the run's questions once, labelled with the run, and passes on the option's key or the text", async () => {
    const { port, asked, followed } = following((q) => (q.stage === 'gate_a' ? { value: 'Y', selectedOption: { key: 'Y', label: 'Yes' } } : { value: 'later', text: 'after lunch' }));
    await settle();
    port.ask('r1', [question('a', 'Ship it?')]);
    await settle();
    // Asked again (a resumed run repeats its pending questions): not asked twice.
    port.ask('r1', [question('a', 'Ship it?'), question('b')]);
    await settle();
    port.stop('r1');
    const { result, unanswered } = await followed;
    expect(asked.map((q) => [q.text, q.stage, q.metadata])).toEqual([
      ['[run r1] Ship it?', 'gate_a', { run: 'r1' }],
      ['[run r1] question b', 'gate_b', { run: 'r1' }],
    ]);
    expect(port.calls.filter((c) => c.startsWith('answer'))).toEqual(['answer r1 a Y', 'answer r1 b after lunch']);
    expect(result).toMatchObject({ id: 'r1', status: 'completed' });
    expect(unanswered).toBe(false);
    // The result is read once the run has stopped.
    expect(port.calls.at(-1)).toBe('result r1');
  });

  it('cancels the run at a question nobody can answer (SKIPPED), and asks no more of its questions', async () => {
    const { port, asked, followed } = following(() => ({ value: 'SKIPPED' }));
    await settle();
    port.ask('r1', [question('a'), question('b')]);
    await settle();
    port.stop('r1');
    const { unanswered } = await followed;
    expect(unanswered).toBe(true);
    expect(asked).toHaveLength(1);
    expect(port.calls.filter((c) => c.startsWith('answer') || c.startsWith('cancel'))).toEqual(['cancel r1']);
  });

  it('withdraws a question still open when the run stops (its ask is aborted)', async () => {
    let signal: AbortSignal | undefined;
    const { port, followed } = following((_q, options) => {
      signal = options.signal;
      return new Promise(() => {});
    });
    await settle();
    port.ask('r1', [question('a')]);
    await settle();
    expect(signal?.aborted).toBe(false);
    port.stop('r1');
    const { unanswered } = await followed;
    expect(signal?.aborted).toBe(true);
    expect(String(signal?.reason)).toContain('run r1 stopped');
    expect(unanswered).toBe(false);
  });
});
