import type { Answer, AskOptions, Interviewer, Question } from '@orchestra/core';
import { answerForQuestion } from '@orchestra/core/human';

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
        // Checked as `orchestra answer` checks an answer: an option's key or label, yes/no, or text.
        take: (line) => {
          const answer = answerForQuestion(question, line);
          if (typeof answer === 'string') return answer;
          done(answer);
          return undefined;
        },
        skip: () => done({ value: 'SKIPPED' }),
      };
      this.changed();
    });
  }
}
