import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerLater, AutoApproveInterviewer, CallbackInterviewer, ConsoleInterviewer, QueueInterviewer, RecordingInterviewer, type Question } from '../../src/index.js';
import { QuestionSchema, conversationQuestion, isConversationQuestion, parseConversationCommand, type QuestionInput } from '../../src/human.js';

const q = (input: Partial<QuestionInput> = {}): Question =>
  QuestionSchema.parse({ text: 'Ship it?', type: 'MULTIPLE_CHOICE', stage: 'gate', options: [{ key: 'A', label: 'Approve' }, { key: 'F', label: 'Fix' }], ...input });

describe('interviewers (seed: Interviewer Implementation Tests, spec §11.8)', () => {
  it('AutoApprove: YES for yes/no and confirmation, the first option, "auto-approved" for free text', async () => {
    const auto = new AutoApproveInterviewer();
    expect(await auto.ask(q({ type: 'YES_NO', options: [] }))).toEqual({ value: 'YES' });
    expect(await auto.ask(q({ type: 'CONFIRMATION', options: [] }))).toEqual({ value: 'YES' });
    expect(await auto.ask(q())).toEqual({ value: 'A', selectedOption: { key: 'A', label: 'Approve' } });
    expect(await auto.ask(q({ type: 'FREEFORM', options: [] }))).toEqual({ value: 'auto-approved', text: 'auto-approved' });
  });

  it('Queue: dequeues answers in order, then SKIPPED; strings are matched to options', async () => {
    const queue = new QueueInterviewer([{ value: 'F', selectedOption: { key: 'F', label: 'Fix' } }, 'approve', 'looks fine']);
    expect(await queue.ask(q())).toEqual({ value: 'F', selectedOption: { key: 'F', label: 'Fix' } });
    expect(await queue.ask(q())).toEqual({ value: 'A', selectedOption: { key: 'A', label: 'Approve' } });
    expect(await queue.ask(q({ type: 'FREEFORM', options: [] }))).toEqual({ value: 'looks fine', text: 'looks fine' });
    expect(queue.remaining).toBe(0);
    expect(await queue.ask(q())).toEqual({ value: 'SKIPPED' });
  });

  it('Callback: the function gets the question and its return value is the answer', async () => {
    const seen: Question[] = [];
    const cb = new CallbackInterviewer((question) => {
      seen.push(question);
      return { value: 'NO' };
    });
    expect(await cb.ask(q({ type: 'YES_NO', options: [] }))).toEqual({ value: 'NO' });
    expect(seen.map((s) => s.text)).toEqual(['Ship it?']);
  });

  it('Recording: delegates and keeps every question with its answer', async () => {
    const rec = new RecordingInterviewer(new QueueInterviewer(['F', 'A']));
    await rec.ask(q());
    await rec.ask(q({ text: 'Again?' }));
    expect(rec.recordings.map((r) => [r.question.text, r.answer.value])).toEqual([
      ['Ship it?', 'F'],
      ['Again?', 'A'],
    ]);
  });
});

function consoleWith(lines: string[], end = true) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (b: Buffer) => (printed += b.toString()));
  for (const line of lines) input.write(`${line}\n`);
  if (end) input.end();
  return { interviewer: new ConsoleInterviewer({ input, output }), printed: () => printed, input };
}

describe('ConsoleInterviewer (streams injected)', () => {
  it('prints [?] and [K] Label options and reads a key', async () => {
    const c = consoleWith(['f']);
    expect(await c.interviewer.ask(q())).toEqual({ value: 'F', selectedOption: { key: 'F', label: 'Fix' } });
    expect(c.printed()).toContain('[?] Ship it?\n  [A] Approve\n  [F] Fix\nSelect: ');
  });

  it('asks again after an answer that matches nothing, and accepts a label', async () => {
    const c = consoleWith(['x', 'Approve']);
    expect(await c.interviewer.ask(q())).toMatchObject({ value: 'A' });
    expect(c.printed()).toContain('"x" is not a choice: answer with A, F');
  });

  it('reads [Y/N] and free text', async () => {
    const yn = consoleWith(['maybe', 'y']);
    expect(await yn.interviewer.ask(q({ type: 'YES_NO', options: [] }))).toEqual({ value: 'YES' });
    expect(yn.printed()).toContain('[Y/N]: ');
    const free = consoleWith(['  keep my spaces ']);
    expect(await free.interviewer.ask(q({ type: 'FREEFORM', options: [] }))).toEqual({ value: '  keep my spaces ', text: '  keep my spaces ' });
  });

  it('parks at end of input (AnswerLater) instead of answering SKIPPED; more in console-end-of-input.test.ts', async () => {
    const c = consoleWith([]);
    await expect(c.interviewer.ask(q())).rejects.toBeInstanceOf(AnswerLater);
  });

  it('times out to the default, or to TIMEOUT without one', async () => {
    const withDefault = consoleWith([], false);
    const answer = await withDefault.interviewer.ask(q({ timeoutMs: 50, default: { value: 'F', selectedOption: { key: 'F', label: 'Fix' } } }));
    expect(answer).toEqual({ value: 'F', selectedOption: { key: 'F', label: 'Fix' } });
    expect(withDefault.printed()).toContain('no answer in time: Fix');
    withDefault.interviewer.close();
    const bare = consoleWith([], false);
    expect(await bare.interviewer.ask(q({ timeoutMs: 50 }))).toEqual({ value: 'TIMEOUT' });
    bare.interviewer.close();
  });

  it('asks one question at a time: a second ask (a parallel branch) waits until the first is answered', async () => {
    const c = consoleWith([], false);
    const first = c.interviewer.ask(q({ text: 'First?' }));
    const second = c.interviewer.ask(q({ text: 'Second?' }));
    await new Promise((r) => setTimeout(r, 20));
    expect(c.printed()).toContain('[?] First?');
    expect(c.printed()).not.toContain('Second?');
    c.input.write('a\n');
    expect(await first).toEqual({ value: 'A', selectedOption: { key: 'A', label: 'Approve' } });
    c.input.write('f\n');
    expect(await second).toEqual({ value: 'F', selectedOption: { key: 'F', label: 'Fix' } });
    expect(c.printed()).toContain('[?] Second?');
    c.interviewer.close();
  });

  it('a waiting ask gives up when its signal aborts, without disturbing the question being asked', async () => {
    const c = consoleWith([], false);
    const first = c.interviewer.ask(q({ text: 'First?' }));
    const controller = new AbortController();
    const second = c.interviewer.ask(q({ text: 'Second?' }), { signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(second).rejects.toThrow('stopped');
    expect(c.printed()).not.toContain('Second?');
    c.input.write('f\n');
    expect(await first).toMatchObject({ value: 'F' });
    c.interviewer.close();
  });

  it('keeps lines typed ahead for later questions', async () => {
    const c = consoleWith(['a', 'f']);
    expect((await c.interviewer.ask(q())).value).toBe('A');
    expect((await c.interviewer.ask(q())).value).toBe('F');
  });
});

describe('conversation questions (interactive nodes)', () => {
  it('parseConversationCommand: the three commands, any case, with an optional note; anything else is a message', () => {
    expect(parseConversationCommand('/done')).toEqual({ command: '/done', note: '' });
    expect(parseConversationCommand('  /APPROVE  ')).toEqual({ command: '/approve', note: '' });
    expect(parseConversationCommand('/reject too vague\nstart over')).toEqual({ command: '/reject', note: 'too vague\nstart over' });
    for (const message of ['/doneish', '/re-ject', 'done', 'please /done', '/help', '']) expect(parseConversationCommand(message)).toBeUndefined();
  });

  it('conversationQuestion is a FREEFORM question that carries its turn and the commands', () => {
    const question = conversationQuestion('refine', 'Hello', 2, 1000);
    expect(question).toEqual({
      text: 'Hello',
      type: 'FREEFORM',
      options: [],
      stage: 'refine',
      timeoutMs: 1000,
      metadata: { kind: 'conversation', turn: 2, commands: ['/done', '/approve', '/reject'] },
    });
    expect(isConversationQuestion(question)).toBe(true);
    expect(isConversationQuestion(q({ type: 'FREEFORM', options: [] }))).toBe(false);
  });

  it('AutoApprove answers /approve to an agent message, not "auto-approved"', async () => {
    expect(await new AutoApproveInterviewer().ask(conversationQuestion('refine', 'Hi', 1))).toEqual({ value: '/approve', text: '/approve' });
  });

  it('Console shows who speaks and the turn, indents the message, and lists the commands at the first turn it shows', async () => {
    const c = consoleWith(['shorter', '/done']);
    expect(await c.interviewer.ask(conversationQuestion('refine', 'Line one\nLine two', 1))).toEqual({ value: 'shorter', text: 'shorter' });
    expect(await c.interviewer.ask(conversationQuestion('refine', 'Better?', 2))).toEqual({ value: '/done', text: '/done' });
    expect(c.printed()).toBe('\n[refine] agent, turn 1:\n  Line one\n  Line two\n  (reply to the agent, or /done, /approve, /reject; end a line with \\ to go on to the next)\n> \n[refine] agent, turn 2:\n  Better?\n> ');

    const resumed = consoleWith(['/done']);
    await resumed.interviewer.ask(conversationQuestion('refine', 'Where we were', 3));
    expect(resumed.printed()).toContain('(reply to the agent, or /done, /approve, /reject; end a line with \\ to go on to the next)');
  });

  it('Console: a reply may span lines ending with \\; an empty reply is not sent; a free-text gate keeps taking lines as they are', async () => {
    const c = consoleWith(['', '   ', 'First line\\', '  second line\\', 'third', 'plain']);
    expect(await c.interviewer.ask(conversationQuestion('refine', 'Hi', 1))).toEqual({ value: 'First line\n  second line\nthird', text: 'First line\n  second line\nthird' });
    expect(c.printed()).toContain('> > > . . ');
    expect(await c.interviewer.ask(q({ type: 'FREEFORM', options: [] }))).toEqual({ value: 'plain', text: 'plain' });
    const gate = consoleWith(['ends with \\']);
    expect(await gate.interviewer.ask(q({ type: 'FREEFORM', options: [] }))).toEqual({ value: 'ends with \\', text: 'ends with \\' });
    const cut = consoleWith(['unfinished\\']);
    expect(await cut.interviewer.ask(conversationQuestion('refine', 'Hi', 1))).toEqual({ value: 'unfinished', text: 'unfinished' });
  });
});
