import type { RunStore } from '../engine/store/run-store.js';
import { questionId, readPendingQuestions, readRecordedAnswers, writeRecordedAnswers } from '../engine/store/pending-questions.js';
import { AnswerLater } from '../engine/answer-later.js';
import { isConversationQuestion } from './conversation-question.js';
import type { AskOptions, Interviewer } from './interviewer.js';
import { matchOption, type Answer, type Question } from '../engine/question.js';

/**
 * Checks an answer against a pending question and turns it into an
 * {@link Answer}: an option key or label for a choice, y/yes/n/no for yes/no,
 * anything for free text (but not nothing for a conversation's turn). Returns an error message when it fits nothing.
 */
export function answerForQuestion(question: Question, text: string): Answer | string {
  if (question.type === 'MULTIPLE_CHOICE') {
    const option = matchOption(text, question.options);
    if (option) return { value: option.key, selectedOption: option };
    return `${JSON.stringify(text)} is not a choice of ${question.stage}: answer with ${question.options.map((o) => `${o.key} (${o.label})`).join(', ')}`;
  }
  if (question.type === 'YES_NO' || question.type === 'CONFIRMATION') {
    const t = text.trim().toLowerCase();
    if (t === 'y' || t === 'yes') return { value: 'YES' };
    if (t === 'n' || t === 'no') return { value: 'NO' };
    return `${JSON.stringify(text)} is not an answer to a yes/no question: answer yes or no`;
  }
  if (isConversationQuestion(question) && text.trim() === '') return `an empty reply cannot be sent to the agent of ${question.stage}: write a message, or /done, /approve or /reject`;
  return { value: text, text };
}

/** Options of {@link recordAnswer}. */
export interface RecordAnswerOptions {
  /** The pending question to answer (its id: the asking node); needed when several are pending. */
  id?: string;
  /** Replace an answer already recorded for the question (refused otherwise). */
  replace?: boolean;
}

/**
 * Records the answer to a pending question of a parked run (validated);
 * returns an error message when it does not fit, or when the question
 * already has an answer and `replace` is not set.
 */
export async function recordAnswer(store: RunStore, text: string, options: RecordAnswerOptions = {}): Promise<{ id: string; answer: Answer; replaced: boolean } | string> {
  const { id } = options;
  const pending = await readPendingQuestions(store);
  if (pending.length === 0) return `${store.location} is not waiting for an answer`;
  const entry = id === undefined ? pending[0] : pending.find((p) => p.id === id);
  if (!entry) return `no pending question ${JSON.stringify(id)}; pending: ${pending.map((p) => p.id).join(', ')}`;
  if (id === undefined && pending.length > 1) return `several questions are pending (${pending.map((p) => p.id).join(', ')}); choose one with --question`;
  const answer = answerForQuestion(entry.question, text);
  if (typeof answer === 'string') return answer;
  const recorded = await readRecordedAnswers(store);
  const earlier = recorded[entry.id];
  if (earlier && !options.replace) {
    return `${entry.id} already has an answer (${JSON.stringify(earlier.text ?? earlier.value)}); add --replace to replace it`;
  }
  await writeRecordedAnswers(store, { ...recorded, [entry.id]: answer });
  return { id: entry.id, answer, replaced: earlier !== undefined };
}

/**
 * Answers from `answers.json` first (what `orchestra answer` recorded for a
 * parked run; each answer is used once), else asks `inner`; with `park`,
 * instead of asking it parks the run ({@link AnswerLater}).
 */
export class RecordedAnswersInterviewer implements Interviewer {
  constructor(
    private readonly store: RunStore,
    private readonly inner: Interviewer | undefined,
  ) {}

  async ask(question: Question, options?: AskOptions): Promise<Answer> {
    const recorded = await readRecordedAnswers(this.store);
    const id = questionId(question);
    const answer = recorded[id];
    if (answer) {
      const { [id]: _used, ...rest } = recorded;
      await writeRecordedAnswers(this.store, rest);
      return answer;
    }
    if (!this.inner) throw new AnswerLater(question);
    return this.inner.ask(question, options);
  }

  inform(message: string, stage: string): void {
    this.inner?.inform?.(message, stage);
  }
}
