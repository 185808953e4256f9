import type { Readable, Writable } from 'node:stream';
import type { AskOptions, Interviewer } from './interviewer.js';
import { CONVERSATION_COMMANDS, isConversationQuestion } from './conversation-question.js';
import { LineReader } from './line-reader.js';
import { AnswerLater } from '../engine/answer-later.js';
import { escapeControl } from '../text/escape-control.js';
import { matchOption, timeoutAnswer, type Answer, type Question } from '../engine/question.js';

/** Streams of a {@link ConsoleInterviewer} (the process's by default; injectable for tests). */
export interface ConsoleStreams {
  input?: Readable;
  output?: Writable;
  /** How long to wait for an answer when the question sets no timeout (`interviewer.timeout` in orchestra.yaml); default: for ever. */
  defaultTimeoutMs?: number;
}

/** An agent reply being shown as it streams in. */
interface Streaming {
  key: string;
  stage: string;
  text: string;
  atLineStart: boolean;
}

/** Who speaks in a conversation: `[node] agent, turn N:`. */
function speaker(stage: string, turn: number): string {
  return `\n[${escapeControl(stage, { keepNewlines: false })}] agent, turn ${turn}:\n`;
}

/** The heading of a later phase of a phased node, after its discussion: `[node] summarize:`. */
function phaseHeading(stage: string, phase: string): string {
  return `\n[${escapeControl(stage, { keepNewlines: false })}] ${escapeControl(phase, { keepNewlines: false })}:\n`;
}

/** The commands hint of a conversation. */
function commandsHint(): string {
  return `  (reply to the agent, or ${CONVERSATION_COMMANDS.join(', ')}; end a line with \\ to go on to the next)\n`;
}

/** An agent message of an interactive node: who speaks, the message indented, and (with `hint`) the commands. */
function conversationPrompt(question: Question, hint: boolean): string {
  const turn = Number(question.metadata.turn ?? 1);
  const body = escapeControl(question.text)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  return `${speaker(question.stage, turn)}${body}\n${hint ? commandsHint() : ''}`;
}

/** Resolves when `previous` settles; rejects with the abort reason if `signal` aborts first. */
function untilDone(previous: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return previous;
  signal.throwIfAborted();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * Asks on a terminal (spec §6.4): `[?] question`, options as `  [K] Label`,
 * `[Y/N]` for yes/no, `> ` for free text; an interactive node's agent message
 * as `[node] agent, turn N:` with the message indented; a reply to it may span
 * lines (each but the last ending with `\`), and an empty one is not sent. An
 * answer that matches nothing is asked again; the question's timeout answers
 * its default (or TIMEOUT).
 *
 * End of input (Ctrl-D, or standard input closed, as in CI) does not fail
 * the run: a question with a default answer (a gate's `human.default_choice`)
 * takes it, and says so; any other question, and every turn of an
 * interactive node's conversation, throws {@link AnswerLater}, so the run
 * parks, to be answered with `orchestra answer` and continued with
 * `orchestra resume`. Once input has ended, every later question of the
 * process does the same at once, never waiting ({@link ConsoleInterviewer.inputEnded}).
 */
export class ConsoleInterviewer implements Interviewer {
  private readonly reader: LineReader;
  private readonly output: Writable;
  /** Nodes whose conversation commands were already shown in this process. */
  private readonly hinted = new Set<string>();
  /** Settles when the question being asked is answered. */
  private busy: Promise<void> = Promise.resolve();
  private readonly defaultTimeoutMs: number | undefined;
  /** The reply streaming in now, if any. */
  private streaming: Streaming | undefined;
  /** Replies shown while they streamed, by `stage#turn`: their question does not show them again. */
  private readonly streamed = new Map<string, string>();
  /** Set once a question met the end of the input. */
  private ended = false;

  constructor(streams: ConsoleStreams = {}) {
    this.reader = new LineReader(streams.input ?? process.stdin);
    this.output = streams.output ?? process.stdout;
    this.defaultTimeoutMs = streams.defaultTimeoutMs;
  }

  /**
   * Whether a question met the end of the input: from then on every question
   * takes its default or parks at once. With a parked run, it tells that the
   * run parked because the input ended.
   */
  get inputEnded(): boolean {
    return this.ended;
  }

  /**
   * Shows a piece of an interactive node's agent reply as it arrives (the
   * seed's "agent streams output"): `[node] agent, turn N:` once, then the
   * text, indented. The question that follows with the whole reply does not
   * print it again. `phase`: the phase of a phased node the text belongs to;
   * the Discuss phase's replies are the agent's turns, the later phases'
   * text streams under their own heading (`[node] summarize:`).
   */
  streamReply(stage: string, turn: number, text: string, phase?: string): void {
    const later = phase !== undefined && phase !== 'discuss';
    const key = later ? `${stage}@${phase}` : `${stage}#${turn}`;
    if (this.streaming?.key !== key) {
      this.endStream();
      this.write(later ? phaseHeading(stage, phase) : speaker(stage, turn));
      this.streaming = { key, stage, text: '', atLineStart: true };
    }
    const s = this.streaming as Streaming;
    let out = '';
    // Model text reaches the terminal: control characters are shown, never obeyed.
    for (const ch of escapeControl(text)) {
      if (s.atLineStart && ch !== '\n') out += '  ';
      out += ch;
      s.atLineStart = ch === '\n';
    }
    s.text += text;
    // Only an agent's turn is asked about afterwards (and then not shown again).
    if (!later) this.streamed.set(key, s.text);
    this.write(out);
  }

  /** Ends the line of `stage`'s reply if it is streaming (its stage ended: nothing asks about it). */
  endReply(stage: string): void {
    if (this.streaming?.stage === stage) this.endStream();
  }

  /** Ends the line of a reply that was streaming. */
  private endStream(): void {
    if (this.streaming && !this.streaming.atLineStart) this.write('\n');
    this.streaming = undefined;
  }

  private write(text: string): void {
    this.output.write(text);
  }

  /**
   * Asks one question at a time: questions from parallel branches wait their
   * turn (their `human.timeout` starts when they are shown).
   */
  async ask(question: Question, options: AskOptions = {}): Promise<Answer> {
    const previous = this.busy;
    let release = () => {};
    this.busy = new Promise<void>((resolve) => (release = resolve));
    try {
      await untilDone(previous, options.signal);
      return await this.askNow(question, options);
    } finally {
      release();
    }
  }

  private async askNow(asked: Question, options: AskOptions): Promise<Answer> {
    const question = asked.timeoutMs === undefined && this.defaultTimeoutMs !== undefined ? { ...asked, timeoutMs: this.defaultTimeoutMs } : asked;
    const deadline = question.timeoutMs === undefined ? undefined : Date.now() + question.timeoutMs;
    const streamedKey = `${question.stage}#${Number(question.metadata.turn ?? 1)}`;
    const streamed = this.streamed.get(streamedKey);
    this.endStream();
    this.streamed.delete(streamedKey);
    if (isConversationQuestion(question)) {
      // The commands are shown at a conversation's first turn, and at the first turn this process shows (a resumed run).
      const hint = question.metadata.turn === 1 || !this.hinted.has(question.stage);
      // A reply shown while it streamed is not printed again (an agent's final answer ends what streamed).
      if (streamed !== undefined && streamed.trimEnd().endsWith(question.text.trimEnd())) this.write(hint ? commandsHint() : '');
      else this.write(conversationPrompt(question, hint));
      this.hinted.add(question.stage);
    } else {
      this.write(`\n[?] ${escapeControl(question.text)}\n`);
    }
    if (question.type === 'MULTIPLE_CHOICE') for (const o of question.options) this.write(`  [${escapeControl(o.key)}] ${escapeControl(o.label)}\n`);
    if (question.timeoutMs !== undefined) {
      const fallback = question.default ? `, then ${escapeControl(question.default.selectedOption?.label ?? question.default.value)}` : '';
      this.write(`  (waiting up to ${seconds(question.timeoutMs)}${fallback})\n`);
    }
    const prompt = question.type === 'MULTIPLE_CHOICE' ? 'Select: ' : question.type === 'FREEFORM' ? '> ' : '[Y/N]: ';
    const conversation = isConversationQuestion(question);
    let continued: string[] = []; // lines of a conversation reply ended with `\`
    for (;;) {
      this.write(continued.length > 0 ? '. ' : prompt);
      const remaining = deadline === undefined ? undefined : Math.max(0, deadline - Date.now());
      const read = await this.reader.next(remaining, options.signal);
      if (read.kind === 'timeout') {
        const answer = timeoutAnswer(question);
        this.write(`\n  no answer in time: ${escapeControl(answer.selectedOption?.label ?? answer.value)}\n`);
        return answer;
      }
      if (read.kind === 'eof') {
        this.ended = true;
        this.write('\n');
        if (continued.length > 0) return { value: continued.join('\n'), text: continued.join('\n') };
        return this.atEndOfInput(question);
      }
      const line = read.line.trim();
      if (question.type === 'FREEFORM' && conversation) {
        if (read.line.endsWith('\\')) {
          continued.push(read.line.slice(0, -1));
          continue;
        }
        const text = [...continued, read.line].join('\n');
        continued = [];
        if (text.trim() === '') continue; // nothing to send to the agent
        return { value: text, text };
      }
      if (question.type === 'FREEFORM') return { value: read.line, text: read.line };
      if (question.type === 'MULTIPLE_CHOICE') {
        const option = matchOption(line, question.options);
        if (option) return { value: option.key, selectedOption: option };
        this.write(`  ${escapeControl(`${JSON.stringify(line)} is not a choice: answer with ${question.options.map((o) => o.key).join(', ')}`)}\n`);
        continue;
      }
      const yn = line.toLowerCase();
      if (yn === 'y' || yn === 'yes') return { value: 'YES' };
      if (yn === 'n' || yn === 'no') return { value: 'NO' };
      this.write('  answer y or n\n');
    }
  }

  /** No answer will come from the input: the question's default, else the run parks. */
  private atEndOfInput(question: Question): Answer {
    if (question.default && !isConversationQuestion(question)) {
      this.write(`  input ended: taking the default, ${escapeControl(question.default.selectedOption?.label ?? question.default.value)}\n`);
      return { ...question.default }; // a copy: the answer was chosen, not timed out
    }
    this.write('  input ended: the run parks until this is answered\n');
    throw new AnswerLater(question, [], 'end-of-input');
  }

  inform(message: string, stage: string): void {
    this.endStream();
    this.write(`[i] ${stage ? `${escapeControl(stage, { keepNewlines: false })}: ` : ''}${escapeControl(message)}\n`);
  }

  /** Stops reading the input, so the process can exit. */
  close(): void {
    this.reader.close();
  }
}
