import { matchOption, type Answer, type AskOptions, type Interviewer, type Question } from '@orchestra/core';

/** A question waiting for the person's next line. */
export interface PendingLine {
  question: Question;
  /** Takes a line; returns an error message when it does not answer the question (it is then asked again). */
  take(line: string): string | undefined;
  /** No more input: the question gets no answer (SKIPPED). */
  skip(): void;
}

/**
 * The chat terminal's interviewer: a question (a run's approval, a gate of a
 * launched run) is shown, and the person's next line answers it. The
 * terminal decides which line goes where ({@link ChatTerminal}).
 */
export class TerminalInterviewer implements Interviewer {
  pending: PendingLine | undefined;

  constructor(
    private readonly show: (question: Question) => void,
    private readonly changed: () => void,
  ) {}

  ask(question: Question, options: AskOptions = {}): Promise<Answer> {
    this.show(question);
    return new Promise<Answer>((resolve, reject) => {
      const done = (answer: Answer) => {
        this.pending = undefined;
        options.signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const onAbort = () => {
        this.pending = undefined;
        reject(options.signal?.reason);
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending = {
        question,
        take: (line) => {
          const text = line.trim();
          if (question.type === 'MULTIPLE_CHOICE') {
            const option = matchOption(text, question.options);
            if (!option) return `answer with ${question.options.map((o) => `${o.key} (${o.label})`).join(', ')}`;
            done({ value: option.key, selectedOption: option });
            return undefined;
          }
          if (question.type === 'YES_NO' || question.type === 'CONFIRMATION') {
            if (/^y(es)?$/i.test(text)) done({ value: 'YES' });
            else if (/^no?$/i.test(text)) done({ value: 'NO' });
            else return 'answer yes or no';
            return undefined;
          }
          done({ value: line, text: line });
          return undefined;
        },
        skip: () => done({ value: 'SKIPPED' }),
      };
      this.changed();
    });
  }
}
