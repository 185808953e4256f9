import { describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/index.js';
import { dot, run, scripted, statusAt, useTempDirs } from './engine-helpers.js';

useTempDirs();

/**
 * fan -> a, b, c -> join -> v1 -> v2 -> v3 -> tally -> exit: the branches answer, three voters
 * vote one after the other (each writes its vote to `vote_<n>`), and the fan-in `tally` counts them.
 */
function voting(branches = ['a', 'b', 'c'], voters = 3): string {
  const keys = Array.from({ length: voters }, (_, i) => `vote_${i + 1}`);
  const lines = ['  fan [shape=component]', '  join [shape=tripleoctagon]', `  tally [shape=tripleoctagon, fan_in.votes="${keys.join(',')}"]`, '  start -> fan'];
  for (const b of branches) lines.push(`  ${b} [type="s"]`, `  fan -> ${b} -> join`);
  for (let i = 1; i <= voters; i += 1) lines.push(`  v${i} [type="s"]`);
  lines.push(`  join -> ${Array.from({ length: voters }, (_, i) => `v${i + 1}`).join(' -> ')} -> tally -> exit`);
  return dot(lines.join('\n'));
}

/** A voter's step: its reasons, then its vote, written to `vote_<n>` as a response.key would. */
function vote(n: number, text: string): Outcome {
  return { status: 'success', contextUpdates: { [`vote_${n}`]: text } };
}

describe('fan-in by vote (fan_in.votes)', () => {
  it('picks the branch most votes name, and records each vote, the tally and the pick', async () => {
    const s = scripted({ v1: vote(1, 'b is the most complete.\nVOTE: b'), v2: vote(2, 'VOTE: c'), v3: vote(3, 'I prefer b.\n\nVOTE: b\n') });
    const { result, logsRoot } = await run(voting(), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.context['parallel.fan_in.best_id']).toBe('b');
    expect(result.context['parallel.fan_in.votes']).toEqual({ vote_1: 'b', vote_2: 'c', vote_3: 'b' });
    expect(result.context['parallel.fan_in.tally']).toEqual({ a: 0, b: 2, c: 1 });
    expect(statusAt(logsRoot, 'tally')).toMatchObject({
      outcome: 'success',
      notes: 'Selected best candidate: b (2 of 3 votes)',
      context_updates: { 'parallel.fan_in.best_id': 'b', 'parallel.fan_in.votes': { vote_1: 'b', vote_2: 'c', vote_3: 'b' }, 'parallel.fan_in.tally': { a: 0, b: 2, c: 1 } },
    });
    // The first fan-in, without votes, still picks by outcome.
    expect(statusAt(logsRoot, 'join')).toMatchObject({ notes: 'Selected best candidate: a' });
  });

  it('breaks a tie by outcome, then by declaration order', async () => {
    const tie = scripted({ v1: vote(1, 'VOTE: c'), v2: vote(2, 'VOTE: b') });
    const first = await run(voting(['a', 'b', 'c'], 2), { handlers: { s: tie.handler } });
    expect(first.result.context['parallel.fan_in.best_id']).toBe('b');
    expect(statusAt(first.logsRoot, 'tally')).toMatchObject({ notes: 'Selected best candidate: b (1 of 2 votes; a tie with c, broken by declaration order)' });
    // b only partly succeeded: c, with as many votes and a better outcome, wins.
    const partial = scripted({ b: { status: 'partial_success' }, v1: vote(1, 'VOTE: c'), v2: vote(2, 'VOTE: b') });
    const second = await run(voting(['a', 'b', 'c'], 2), { handlers: { s: partial.handler } });
    expect(second.result.context['parallel.fan_in.best_id']).toBe('c');
    expect(statusAt(second.logsRoot, 'tally')).toMatchObject({ notes: 'Selected best candidate: c (1 of 2 votes; a tie with b, broken by outcome)' });
  });

  it('reads a vote whatever its case and spacing; a vote without a VOTE line counts when it names exactly one branch', async () => {
    const s = scripted({ v1: vote(1, 'vote:   AGENT 2.'), v2: vote(2, 'agent_2 is clearly better than the other.'), v3: vote(3, 'Vote: agent-1') });
    const { result } = await run(voting(['agent_1', 'agent_2'], 3), { handlers: { s: s.handler } });
    expect(result.context['parallel.fan_in.votes']).toEqual({ vote_1: 'agent_2', vote_2: 'agent_2', vote_3: 'agent_1' });
    expect(result.context['parallel.fan_in.best_id']).toBe('agent_2');
  });

  it('a vote naming no branch, several, a failed one, or missing is void; with no valid vote it picks by outcome', async () => {
    const s = scripted({
      a: { status: 'fail' },
      v1: vote(1, 'Both b and c are fine.'),
      v2: vote(2, 'VOTE: a'),
      v3: vote(3, 'VOTE: nobody'),
    });
    const { result, logsRoot } = await run(voting(), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.context['parallel.fan_in.votes']).toEqual({ vote_1: null, vote_2: 'a', vote_3: null });
    expect(result.context['parallel.fan_in.tally']).toEqual({ b: 0, c: 0 });
    expect(result.context['parallel.fan_in.best_id']).toBe('b');
    expect(statusAt(logsRoot, 'tally')).toMatchObject({ notes: 'Selected best candidate: b (no valid vote of 3; picked by outcome, then declaration order)' });
  });
});
