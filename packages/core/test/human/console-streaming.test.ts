import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ConsoleInterviewer, type Question } from '../../src/index.js';
import { QuestionSchema, conversationQuestion } from '../../src/human.js';

/** A console over piped streams; `lines` are typed in when asked. */
function consoleWith(lines: string[], defaultTimeoutMs?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (b: Buffer) => (printed += b.toString()));
  for (const line of lines) input.write(`${line}\n`);
  const interviewer = new ConsoleInterviewer({ input, output, ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}) });
  return { interviewer, printed: () => printed, input };
}

describe('ConsoleInterviewer: streamed agent replies', () => {
  it('shows a reply as it streams, indented under its speaker, and the question does not print it again', async () => {
    const { interviewer, printed } = consoleWith(['thanks']);
    interviewer.streamReply('refine', 1, 'First li');
    interviewer.streamReply('refine', 1, 'ne\nsecond line');
    expect(printed()).toBe('\n[refine] agent, turn 1:\n  First line\n  second line');
    const answer = await interviewer.ask(conversationQuestion('refine', 'First line\nsecond line', 1));
    expect(answer.text).toBe('thanks');
    expect(printed()).toBe('\n[refine] agent, turn 1:\n  First line\n  second line\n  (reply to the agent, or /done, /approve, /reject; end a line with \\ to go on to the next)\n> ');
    interviewer.close();
  });

  it('an agent that talked before its final answer (tool calls between) still shows the answer once', async () => {
    const { interviewer, printed } = consoleWith(['ok']);
    interviewer.streamReply('code', 2, 'Let me look at the file.');
    interviewer.streamReply('code', 2, 'The bug is on line 3.');
    await interviewer.ask(conversationQuestion('code', 'The bug is on line 3.', 2));
    expect(printed().match(/The bug is on line 3\./g)).toHaveLength(1);
    interviewer.close();
  });

  it("labels a phased node's later phases: the brief streams under `[node] summarize:`, not under the last agent turn", async () => {
    const { interviewer, printed } = consoleWith([]);
    interviewer.streamReply('dream', 1, 'Which tone?', 'discuss');
    interviewer.inform('the agent has what it needs; summarizing the conversation', 'dream');
    interviewer.streamReply('dream', 1, 'Brief: ', 'summarize');
    interviewer.streamReply('dream', 1, 'wry.', 'summarize');
    interviewer.streamReply('dream', 1, 'Calling the tool.', 'serialize');
    expect(printed()).toBe(
      '\n[dream] agent, turn 1:\n  Which tone?\n[i] dream: the agent has what it needs; summarizing the conversation\n' +
        '\n[dream] summarize:\n  Brief: wry.\n' +
        '\n[dream] serialize:\n  Calling the tool.',
    );
    interviewer.close();
  });

  it('prints the whole message when what streamed is not the reply (another turn streamed, or nothing did)', async () => {
    const { interviewer, printed } = consoleWith(['a', 'b']);
    interviewer.streamReply('talk', 1, 'partial');
    await interviewer.ask(conversationQuestion('talk', 'The real reply', 1));
    expect(printed()).toContain('\n[talk] agent, turn 1:\n  The real reply\n');
    await interviewer.ask(conversationQuestion('talk', 'Turn two', 2));
    expect(printed()).toContain('\n[talk] agent, turn 2:\n  Turn two\n');
    interviewer.close();
  });

  it('a new speaker or an inform ends the streaming line first', () => {
    const { interviewer, printed } = consoleWith([]);
    interviewer.streamReply('a', 1, 'one');
    interviewer.streamReply('b', 1, 'two');
    interviewer.inform('note', 'b');
    expect(printed()).toBe('\n[a] agent, turn 1:\n  one\n\n[b] agent, turn 1:\n  two\n[i] b: note\n');
    interviewer.close();
  });

  it('defaultTimeoutMs bounds questions that set no timeout of their own', async () => {
    const { interviewer, printed } = consoleWith([], 50);
    const question: Question = { text: 'Ship?', type: 'YES_NO', options: [], stage: 'gate', metadata: {} };
    const answer = await interviewer.ask(question);
    expect(answer.value).toBe('TIMEOUT');
    expect(printed()).toContain('(waiting up to 0.1s)');
    interviewer.close();
  });
});

describe('ConsoleInterviewer: model text cannot drive the terminal', () => {
  it('shows escape sequences, carriage returns and bidi overrides in replies, streamed or not, instead of obeying them', async () => {
    const { interviewer, printed } = consoleWith(['ok', 'ok']);
    interviewer.streamReply('talk', 1, 'red \u001b[31mtext\rover\u202e');
    await interviewer.ask(conversationQuestion('talk', 'red \u001b[31mtext\rover\u202e', 1));
    await interviewer.ask(conversationQuestion('talk', 'clear \u001b[2J screen', 2));
    expect(printed()).not.toMatch(/[\u001b\r\u202e]/);
    expect(printed()).toContain('red \\e[31mtext\\rover\\u202e');
    expect(printed()).toContain('clear \\e[2J screen');
    interviewer.close();
  });

  it("shows a pipeline's stage names and option labels escaped: speaker, wrong choice, timeout default, notice", async () => {
    const hostile = '\u001b]0;owned\u0007\r\u009b\u202e';
    const { interviewer, printed } = consoleWith([`no${hostile}`]);
    interviewer.streamReply(`talk${hostile}`, 1, 'hi');
    interviewer.inform('note', `stage${hostile}`);
    const option = { key: `A${hostile}`, label: `Approve${hostile}` };
    const question = QuestionSchema.parse({ text: 'Ship?', type: 'MULTIPLE_CHOICE', stage: 'gate', options: [option], timeoutMs: 100, default: { value: option.key, selectedOption: option } });
    expect(await interviewer.ask(question)).toMatchObject({ value: option.key });
    expect(printed()).not.toMatch(/[\u001b\u0007\r\u009b\u202e]/);
    expect(printed()).toContain('[talk\\e]0;owned\\x07\\r\\x9b\\u202e] agent, turn 1:');
    expect(printed()).toContain('no answer in time: Approve\\e]0;owned');
    interviewer.close();
  });
});
