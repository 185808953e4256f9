import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerLater, ConsoleInterviewer, createDefaultRegistry, simulationBackend, type Question } from '../../src/index.js';
import { QuestionSchema, conversationQuestion, type QuestionInput } from '../../src/human.js';
import { checkpointAt, dot, eventsOf, run, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

const q = (input: Partial<QuestionInput> = {}): Question =>
  QuestionSchema.parse({ text: 'Ship it?', type: 'MULTIPLE_CHOICE', stage: 'gate', options: [{ key: 'A', label: 'Approve' }, { key: 'F', label: 'Fix' }], ...input });

const HOLD = { value: 'H', selectedOption: { key: 'H', label: 'Hold' } };

/** A console whose input holds `lines` and then ends. */
function endedConsole(lines: string[] = []) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (b: Buffer) => (printed += b.toString()));
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  return { interviewer: new ConsoleInterviewer({ input, output }), printed: () => printed };
}

/** What `ask` threw (fails the test when it answered). */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the question to park, but it was answered');
}

describe('ConsoleInterviewer at end of input', () => {
  it('parks: throws AnswerLater for the question, with reason end-of-input', async () => {
    const c = endedConsole();
    const error = await thrown(c.interviewer.ask(q()));
    expect(error).toBeInstanceOf(AnswerLater);
    expect((error as AnswerLater).question).toMatchObject({ stage: 'gate', text: 'Ship it?' });
    expect((error as AnswerLater).reason).toBe('end-of-input');
    expect(c.printed()).toContain('input ended: the run parks until this is answered');
    expect(c.interviewer.inputEnded).toBe(true);
  });

  it('answers the default choice when the question has one, and says so', async () => {
    const c = endedConsole();
    const options = [...q().options, { key: 'H', label: 'Hold' }];
    const question = q({ options, default: HOLD });
    const answer = await c.interviewer.ask(question);
    expect(answer).toEqual(HOLD);
    expect(answer).not.toBe(question.default); // a chosen answer, not reported as a timeout
    expect(c.printed()).toContain('input ended: taking the default, Hold');
  });

  it('parks an interactive node conversation turn, and a yes/no or free-text question', async () => {
    for (const question of [conversationQuestion('refine', 'Shorter?', 2), q({ type: 'YES_NO', options: [] }), q({ type: 'FREEFORM', options: [] })]) {
      expect(await thrown(endedConsole().interviewer.ask(question))).toBeInstanceOf(AnswerLater);
    }
  });

  it('still sends a conversation reply cut off by the end of input (lines ended with \\)', async () => {
    const c = endedConsole(['unfinished\\']);
    expect(await c.interviewer.ask(conversationQuestion('refine', 'Hi', 1))).toEqual({ value: 'unfinished', text: 'unfinished' });
  });

  it('uses lines typed before the end, then parks every later question at once, even one with a long timeout', async () => {
    const c = endedConsole(['a']);
    expect(await c.interviewer.ask(q())).toMatchObject({ value: 'A' });
    expect(c.interviewer.inputEnded).toBe(false);
    expect(await thrown(c.interviewer.ask(q({ text: 'Second?' })))).toBeInstanceOf(AnswerLater);
    const started = Date.now();
    expect(await thrown(c.interviewer.ask(q({ text: 'Third?', timeoutMs: 60_000 })))).toBeInstanceOf(AnswerLater);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('parallel questions waiting their turn park too, never blocking', async () => {
    const c = endedConsole();
    const asked = [c.interviewer.ask(q({ stage: 'g1' })), c.interviewer.ask(q({ stage: 'g2' }))];
    const errors = await Promise.all(asked.map(thrown));
    expect(errors.map((e) => (e as AnswerLater).question.stage)).toEqual(['g1', 'g2']);
  });
});

const GATE = dot('  gate [shape=hexagon, label="Go?"]\n  yes [prompt="y"]\n  no [prompt="n"]\n  start -> gate\n  gate -> yes [label="[Y] Yes"]\n  gate -> no [label="[N] No"]\n  yes -> exit\n  no -> exit');

describe('a run whose console input ends at a gate', () => {
  it('parks (pending-questions.json) instead of failing the gate', async () => {
    const { interviewer } = endedConsole();
    const { result, logsRoot, events } = await run(GATE, { registry: createDefaultRegistry({ backend: simulationBackend, interviewer }), source: GATE });
    expect(result.status).toBe('parked');
    expect(checkpointAt(logsRoot)).toMatchObject({ status: 'parked', next_node: 'gate' });
    const pending = JSON.parse(readFileSync(join(logsRoot, 'pending-questions.json'), 'utf8')) as { questions: { id: string }[] };
    expect(pending.questions.map((p) => p.id)).toEqual(['gate']);
    expect(eventsOf(events, 'pipeline.parked')).toHaveLength(1);
    expect(eventsOf(events, 'human.interaction')).toEqual([]); // nothing was answered
    expect(eventsOf(events, 'stage.failed')).toEqual([]);
  });

  it('takes human.default_choice instead, and the run goes on', async () => {
    const source = GATE.replace('gate [shape=hexagon, label="Go?"]', 'gate [shape=hexagon, label="Go?", human.default_choice=no]');
    const { interviewer, printed } = endedConsole();
    const { result } = await run(source, { registry: createDefaultRegistry({ backend: simulationBackend, interviewer }), source });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'gate', 'no', 'exit']);
    expect(printed()).toContain('input ended: taking the default, No');
  });
});
