import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AutoApproveInterviewer, QueueInterviewer, RecordingInterviewer, createDefaultRegistry, simulationBackend, type Answer, type Interviewer, type Question } from '../../src/index.js';
import { dot, eventsOf, run, runInMemory, statusAt, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

const GATE = dot(
  '  work [prompt="Do the work"]\n  gate [shape=hexagon, label="Review Changes"]\n  ship [prompt="Ship"]\n  fixes [prompt="Fix"]\n  later [prompt="Later"]\n' +
    '  start -> work -> gate\n  gate -> ship [label="[A] Approve"]\n  gate -> fixes [label="F) Fix issues"]\n  gate -> later\n  ship -> exit\n  fixes -> exit\n  later -> exit',
);

function registry(interviewer: Interviewer) {
  return createDefaultRegistry({ backend: simulationBackend, interviewer });
}

/** start -> notes (a free-text gate with `attrs`) -> use -> exit. */
const NOTES = (attrs = '') => dot(`  notes [shape=hexagon, label="Any notes?", human.input="freeform"${attrs}]\n  use [prompt="Use the notes"]\n  start -> notes -> use -> exit`);

/** Most questions one test's interviewer answers: a gate that asks again and again fails instead of spinning. */
const MOST_ASKS = 5;

/**
 * An interviewer that gives `answers` in order (the last one again and
 * again) and records each question; its answer is what an interviewer
 * says, nothing the handler should work out (no default taken for it).
 */
function answering(...answers: Answer[]): Interviewer & { asked: Question[] } {
  const asked: Question[] = [];
  return {
    asked,
    async ask(question) {
      asked.push(question);
      if (asked.length > MOST_ASKS) throw new Error(`asked ${asked.length} times`);
      return answers[Math.min(asked.length, answers.length) - 1] as Answer;
    },
  };
}

describe('wait.human handler (seed: Wait.Human Handler Tests, spec §4.6)', () => {
  it('derives one choice per outgoing edge, with accelerator keys, labels and the target id for an unlabelled edge', async () => {
    const rec = new RecordingInterviewer(new QueueInterviewer(['A']));
    await runInMemory(GATE, { registry: registry(rec) });
    expect(rec.recordings[0]?.question).toMatchObject({
      text: 'Review Changes',
      type: 'MULTIPLE_CHOICE',
      stage: 'gate',
      options: [
        { key: 'A', label: 'Approve' },
        { key: 'F', label: 'Fix issues' },
        { key: 'L', label: 'later' },
      ],
    });
  });

  it.each([
    ['A', 'ship', 'A', 'Approve'],
    ['fix issues', 'fixes', 'F', 'Fix issues'],
    ['later', 'later', 'L', 'later'],
  ])('routes on the answer %j to %s and records it in the context', async (answer, target, key, label) => {
    const { result, logsRoot } = await run(GATE, { registry: registry(new QueueInterviewer([answer])) });
    expect(result.completedNodes).toEqual(['start', 'work', 'gate', target, 'exit']);
    expect(result.context).toMatchObject({ 'human.gate.selected': key, 'human.gate.label': label });
    expect(statusAt(logsRoot, 'gate')).toMatchObject({ outcome: 'success', preferred_label: label, suggested_next_ids: [target] });
  });

  it('fails without outgoing edges', async () => {
    const { result } = await runInMemory(dot('  gate [shape=hexagon]\n  start -> gate [weight=1]\n  start -> exit'), { registry: registry(new AutoApproveInterviewer()) });
    expect(result.failureReason).toBe('gate failed: No outgoing edges for human gate');
  });

  it('on timeout takes human.default_choice, or asks for a retry without one', async () => {
    // The interviewer only says the time ran out; choosing the default is the handler's job.
    const timeout = answering({ value: 'TIMEOUT' });
    const withDefault = GATE.replace('label="Review Changes"]', 'label="Review Changes", human.timeout="1s", human.default_choice=fixes]');
    const chosen = await runInMemory(withDefault, { registry: registry(timeout) });
    expect(timeout.asked[0]?.default).toEqual({ value: 'F', selectedOption: { key: 'F', label: 'Fix issues' } });
    expect(chosen.result.completedNodes).toEqual(['start', 'work', 'gate', 'fixes', 'exit']);
    expect(chosen.result.context).toMatchObject({ 'human.gate.selected': 'F', 'human.gate.label': 'Fix issues' });
    expect(eventsOf(chosen.events, 'interview.timeout')).toHaveLength(1);
    expect(eventsOf(chosen.events, 'human.interaction')).toEqual([expect.objectContaining({ answerValue: 'F', selectedKey: 'F', selectedLabel: 'Fix issues' })]);

    const noDefault = GATE.replace('label="Review Changes"]', 'label="Review Changes", human.timeout="1s"]');
    const again = answering({ value: 'TIMEOUT' });
    const retried = await runInMemory(noDefault, { registry: registry(again) });
    expect(again.asked).toHaveLength(1);
    expect(retried.result.status).toBe('fail');
    expect(retried.result.failureReason).toBe('gate failed: no answer for human gate gate within 1s');
  });

  it('matches an answer to a label before a target id: a label naming another choice\'s target picks its own edge', async () => {
    // "[P] draft" publishes as a draft; the other choice goes back to the node draft.
    const src = dot(
      '  gate [shape=hexagon, label="Publish?"]\n  publish [prompt="p"]\n  draft [prompt="d"]\n  start -> gate\n  gate -> publish [label="[P] draft"]\n  gate -> draft [label="[E] Edit again"]\n  publish -> exit\n  draft -> exit',
    );
    const answered = await runInMemory(src, { registry: registry(answering({ value: 'draft' })) });
    expect(answered.result.completedNodes).toEqual(['start', 'gate', 'publish', 'exit']);
    expect(answered.result.context).toMatchObject({ 'human.gate.selected': 'P', 'human.gate.label': 'draft' });
    // human.default_choice is matched the same way.
    const timedOut = await runInMemory(src.replace('label="Publish?"]', 'label="Publish?", human.timeout="1s", human.default_choice=draft]'), { registry: registry(answering({ value: 'TIMEOUT' })) });
    expect(timedOut.result.completedNodes).toEqual(['start', 'gate', 'publish', 'exit']);
    // Case and surrounding spaces do not change that; a target id no key or label equals still picks its edge.
    const shouted = await runInMemory(src, { registry: registry(answering({ value: ' DRAFT ' })) });
    expect(shouted.result.completedNodes).toEqual(['start', 'gate', 'publish', 'exit']);
    const byTarget = await runInMemory(src, { registry: registry(answering({ value: 'publish' })) });
    expect(byTarget.result.completedNodes).toEqual(['start', 'gate', 'publish', 'exit']);
    expect(byTarget.result.context['human.gate.selected']).toBe('P');
  });

  it('fails when the human gives no answer (SKIPPED), at once: asking again cannot help, whatever max_retries says', async () => {
    const { result } = await runInMemory(GATE, { registry: registry(new QueueInterviewer([])) });
    expect(result.failureReason).toBe('gate failed: no answer for human gate gate (input ended or no answers left)');
    const rec = new RecordingInterviewer(new QueueInterviewer([]));
    const retrying = await runInMemory(GATE.replace('label="Review Changes"]', 'label="Review Changes", max_retries=2]'), { registry: registry(rec) });
    expect(retrying.result.status).toBe('fail');
    expect(rec.recordings).toHaveLength(1);
    expect(eventsOf(retrying.events, 'stage.retrying')).toEqual([]);
  });

  it('a free-text gate that gets no answer at all (SKIPPED) fails at once, whatever max_retries says', async () => {
    const rec = new RecordingInterviewer(new QueueInterviewer([]));
    const { result, events } = await runInMemory(NOTES(', max_retries=2'), { registry: registry(rec) });
    expect(rec.recordings).toHaveLength(1);
    expect(result).toMatchObject({ status: 'fail', completedNodes: ['start', 'notes'], failureReason: 'notes failed: no answer for human gate notes (input ended or no answers left)' });
    expect(eventsOf(events, 'stage.retrying')).toEqual([]);
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'notes')).toHaveLength(1);
  });

  it('a free-text gate that times out returns retry: asked once more per max_retries, never again in place', async () => {
    // No retries: asked once, then the node fails with the timeout's reason.
    const once = answering({ value: 'TIMEOUT' });
    const failed = await runInMemory(NOTES(', human.timeout="1s"'), { registry: registry(once) });
    expect(once.asked).toHaveLength(1);
    expect(failed.result).toMatchObject({ status: 'fail', completedNodes: ['start', 'notes'], failureReason: 'notes failed: no answer for human gate notes within 1s' });
    expect(eventsOf(failed.events, 'interview.timeout')).toHaveLength(1);
    expect(eventsOf(failed.events, 'human.interaction')).toEqual([expect.objectContaining({ answerValue: 'TIMEOUT', selectedKey: '' })]);
    expect(eventsOf(failed.events, 'stage.retrying')).toEqual([]);

    // One retry: the engine asks again after the back-off, and the answer then goes on.
    const twice = answering({ value: 'TIMEOUT' }, { value: 'ship it friday', text: 'ship it friday' });
    const retried = await runInMemory(NOTES(', human.timeout="1s", max_retries=1'), { registry: registry(twice) });
    expect(twice.asked).toHaveLength(2);
    expect(retried.result).toMatchObject({ status: 'success', retries: 1, completedNodes: ['start', 'notes', 'use', 'exit'] });
    expect(retried.result.context['human.gate.text']).toBe('ship it friday');
    expect(eventsOf(retried.events, 'stage.retrying')).toEqual([expect.objectContaining({ nodeId: 'notes', attempt: 2 })]);

    // Retries used up: the retry outcome becomes a failure, or partial_success with allow_partial (docs/running.md, Retries).
    const exhausted = answering({ value: 'TIMEOUT' });
    const partial = await runInMemory(NOTES(', human.timeout="1s", max_retries=1, allow_partial=true'), { registry: registry(exhausted) });
    expect(exhausted.asked).toHaveLength(2);
    expect(partial.result).toMatchObject({ status: 'success', completedNodes: ['start', 'notes', 'use', 'exit'] });
    expect(eventsOf(partial.events, 'stage.completed').find((e) => e.nodeId === 'notes')).toMatchObject({ status: 'partial_success', notes: 'retries exhausted, partial accepted' });
  });

  it('a TIMEOUT from an interviewer at a gate without human.timeout says so without a duration', async () => {
    const choice = await runInMemory(GATE, { registry: registry(answering({ value: 'TIMEOUT' })) });
    expect(choice.result.failureReason).toBe('gate failed: no answer for human gate gate within the time allowed');
    const text = await runInMemory(NOTES(), { registry: registry(answering({ value: 'TIMEOUT' })) });
    expect(text.result.failureReason).toBe('notes failed: no answer for human gate notes within the time allowed');
  });

  it('asks free text with human.input="freeform" and stores it in human.gate.text', async () => {
    const src = dot('  notes [shape=hexagon, label="Any notes?", human.input="freeform"]\n  use [prompt="Use the notes"]\n  start -> notes -> use -> exit');
    const { result } = await runInMemory(src, { registry: registry(new QueueInterviewer(['ship it friday'])) });
    expect(result.context['human.gate.text']).toBe('ship it friday');
    expect(result.completedNodes).toEqual(['start', 'notes', 'use', 'exit']);
  });

  it('emits interview events and writes every question and answer to interviews.jsonl', async () => {
    const { events, logsRoot } = await run(GATE, { registry: registry(new QueueInterviewer(['F'])) });
    expect(eventsOf(events, 'interview.started')).toEqual([expect.objectContaining({ nodeId: 'gate', questionText: 'Review Changes', questionType: 'MULTIPLE_CHOICE' })]);
    expect(eventsOf(events, 'interview.completed')).toEqual([expect.objectContaining({ nodeId: 'gate', answerValue: 'F' })]);
    const lines = readFileSync(join(logsRoot, 'interviews.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ type: 'human.interaction', nodeId: 'gate', questionText: 'Review Changes', answerValue: 'F', selectedKey: 'F' })]);
  });

  it('end to end: two gates answered from a queue, and auto-approve taking the first choice (spec §11.12 row)', async () => {
    const two = dot('  g1 [shape=hexagon, label="First?"]\n  g2 [shape=hexagon, label="Second?"]\n  a [prompt="a"]\n  b [prompt="b"]\n  start -> g1\n  g1 -> g2 [label="[Y] Yes"]\n  g1 -> a [label="[N] No"]\n  g2 -> b [label="[Y] Yes"]\n  g2 -> a [label="[N] No"]\n  a -> exit\n  b -> exit');
    const queued = await runInMemory(two, { registry: registry(new QueueInterviewer(['Y', 'N'])) });
    expect(queued.result.completedNodes).toEqual(['start', 'g1', 'g2', 'a', 'exit']);
    const auto = await runInMemory(GATE, { backend: simulationBackend });
    expect(auto.result.completedNodes).toEqual(['start', 'work', 'gate', 'ship', 'exit']);
  });
});

describe('human gate lint and defaults', () => {
  it('human_gate_choices warns about clashing keys and a default that names no choice', async () => {
    const { loadPipeline } = await import('../../src/index.js');
    const src = dot('  gate [shape=hexagon, human.default_choice=maybe]\n  approve [prompt="a"]\n  abort [prompt="b"]\n  start -> gate\n  gate -> approve [label="[A] Approve"]\n  gate -> abort\n  approve -> exit\n  abort -> exit');
    const d = loadPipeline(src).diagnostics.filter((x) => x.rule === 'human_gate_choices');
    expect(d.map((x) => x.message)).toEqual([
      'human gate gate: choices to approve and abort share the key [A]; the key picks approve',
      'human gate gate: human.default_choice "maybe" is not one of its choices; a timeout will ask for a retry instead',
    ]);
    expect(d.every((x) => x.severity === 'warning')).toBe(true);
  });

  it('takes the default choice when any interviewer answers TIMEOUT', async () => {
    const timeout: Interviewer = { ask: async () => ({ value: 'TIMEOUT' }) };
    const src = GATE.replace('label="Review Changes"]', 'label="Review Changes", human.timeout="1s", human.default_choice="Fix issues"]');
    const { result } = await runInMemory(src, { registry: registry(timeout) });
    expect(result.completedNodes).toEqual(['start', 'work', 'gate', 'fixes', 'exit']);
  });
});
