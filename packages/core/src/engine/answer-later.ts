import type { Question } from './question.js';

/**
 * Thrown by an interviewer that has no answer now but will later ("not now"):
 * the run parks — it stores the question as pending, saves its checkpoint and
 * stops, to be resumed once the answer is recorded.
 */
export class AnswerLater extends Error {
  /**
   * @param question the question to answer.
   * @param others more questions the run waits for at the same time (from
   *   parallel branches); the run parks with all of them pending.
   * @param reason why nobody answers now, for the record (`end-of-input`: the console's input ended).
   */
  constructor(
    readonly question: Question,
    readonly others: readonly Question[] = [],
    readonly reason?: string,
  ) {
    super(`waiting for an answer to ${JSON.stringify(question.text)} (${question.stage})${others.length ? ` and ${others.length} more` : ''}`);
    this.name = 'AnswerLater';
  }

  /** Every question the run waits for: `question`, then `others`. */
  get questions(): Question[] {
    return [this.question, ...this.others];
  }
}
