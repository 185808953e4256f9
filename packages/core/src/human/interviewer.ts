import type { Answer, Question } from '../engine/question.js';

/** Options of {@link Interviewer.ask}. */
export interface AskOptions {
  /** Aborted when the run stops; an interviewer must give up waiting then. */
  signal?: AbortSignal;
}

/**
 * Asks a human (spec §6.1): a terminal, a queue of scripted answers, a web
 * page. `ask` resolves with the answer; `SKIPPED` when there is none to give,
 * `TIMEOUT` (or the question's default) when the question's time ran out.
 */
export interface Interviewer {
  ask(question: Question, options?: AskOptions): Promise<Answer>;
  /** Several questions; the default asks them one after the other. */
  askMultiple?(questions: readonly Question[], options?: AskOptions): Promise<Answer[]>;
  /** Tells the human something that needs no answer. */
  inform?(message: string, stage: string): void;
}

/** Asks questions one after the other with `interviewer.ask` (for interviewers without `askMultiple`). */
export async function askEach(interviewer: Interviewer, questions: readonly Question[], options?: AskOptions): Promise<Answer[]> {
  if (interviewer.askMultiple) return interviewer.askMultiple(questions, options);
  const answers: Answer[] = [];
  for (const q of questions) answers.push(await interviewer.ask(q, options));
  return answers;
}
