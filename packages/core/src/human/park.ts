import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { CheckpointError } from '../run/checkpoint.js';
import { RUN_FILES, writeFileAtomic } from '../run/run-files.js';
import { isConversationQuestion } from './conversation-question.js';
import type { AskOptions, Interviewer } from './interviewer.js';
import { AnswerSchema, QuestionSchema, matchOption, type Answer, type Question } from './question.js';

/**
 * Thrown by an interviewer that has no answer now but will later ("not now"):
 * the run parks — it writes the question to `pending-questions.json`, saves
 * its checkpoint and stops, to be resumed once the answer is recorded.
 */
export class AnswerLater extends Error {
  /**
   * @param question the question to answer.
   * @param others more questions the run waits for at the same time (from
   *   parallel branches); the run parks with all of them pending.
   */
  constructor(
    readonly question: Question,
    readonly others: readonly Question[] = [],
  ) {
    super(`waiting for an answer to ${JSON.stringify(question.text)} (${question.stage})${others.length ? ` and ${others.length} more` : ''}`);
    this.name = 'AnswerLater';
  }

  /** Every question the run waits for: `question`, then `others`. */
  get questions(): Question[] {
    return [this.question, ...this.others];
  }
}

/** `pending-questions.json`: the questions a parked run waits for. */
export const PendingQuestionsSchema = z.object({
  format: z.literal('orchestra.pending/1'),
  questions: z.array(z.object({ id: z.string(), asked_at: z.string(), question: QuestionSchema })),
});
export type PendingQuestions = z.infer<typeof PendingQuestionsSchema>;

/** `answers.json`: answers recorded for a parked run (by `orchestra answer`), by question id. */
export const RecordedAnswersSchema = z.object({
  format: z.literal('orchestra.answers/1'),
  answers: z.record(z.string(), AnswerSchema),
});
export type RecordedAnswers = z.infer<typeof RecordedAnswersSchema>;

/** A question's id in the pending file: the node that asks. */
export function questionId(question: Question): string {
  return question.stage;
}

function readJson<T>(path: string, schema: z.ZodType<T>): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new CheckpointError(`${path} is corrupt (not valid JSON); it was left untouched`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new CheckpointError(`${path} is not valid: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}; it was left untouched`);
  return parsed.data;
}

/** The questions a parked run waits for (none when it waits for nothing). */
export function readPendingQuestions(logsRoot: string): PendingQuestions['questions'] {
  return readJson(join(logsRoot, RUN_FILES.pendingQuestions), PendingQuestionsSchema)?.questions ?? [];
}

/** Writes `pending-questions.json` atomically (an empty list when nothing is pending). */
export function writePendingQuestions(logsRoot: string, questions: readonly Question[]): void {
  const file: PendingQuestions = { format: 'orchestra.pending/1', questions: questions.map((q) => ({ id: questionId(q), asked_at: new Date().toISOString(), question: q })) };
  writeFileAtomic(join(logsRoot, RUN_FILES.pendingQuestions), `${JSON.stringify(file, null, 2)}\n`);
}

/** Answers recorded for a run, by question id. */
export function readRecordedAnswers(logsRoot: string): Record<string, Answer> {
  return readJson(join(logsRoot, RUN_FILES.answers), RecordedAnswersSchema)?.answers ?? {};
}

function writeRecordedAnswers(logsRoot: string, answers: Record<string, Answer>): void {
  const file: RecordedAnswers = { format: 'orchestra.answers/1', answers };
  writeFileAtomic(join(logsRoot, RUN_FILES.answers), `${JSON.stringify(file, null, 2)}\n`);
}

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

/** Records the answer to a pending question (validated); returns an error message when it does not fit. */
export function recordAnswer(logsRoot: string, text: string, id?: string): { id: string; answer: Answer } | string {
  const pending = readPendingQuestions(logsRoot);
  if (pending.length === 0) return `${logsRoot} is not waiting for an answer`;
  const entry = id === undefined ? pending[0] : pending.find((p) => p.id === id);
  if (!entry) return `no pending question ${JSON.stringify(id)}; pending: ${pending.map((p) => p.id).join(', ')}`;
  if (id === undefined && pending.length > 1) return `several questions are pending (${pending.map((p) => p.id).join(', ')}); choose one with --question`;
  const answer = answerForQuestion(entry.question, text);
  if (typeof answer === 'string') return answer;
  writeRecordedAnswers(logsRoot, { ...readRecordedAnswers(logsRoot), [entry.id]: answer });
  return { id: entry.id, answer };
}

/**
 * Answers from `answers.json` first (what `orchestra answer` recorded for a
 * parked run; each answer is used once), else asks `inner`; with `park`,
 * instead of asking it parks the run ({@link AnswerLater}).
 */
export class RecordedAnswersInterviewer implements Interviewer {
  constructor(
    private readonly logsRoot: string,
    private readonly inner: Interviewer | undefined,
  ) {}

  async ask(question: Question, options?: AskOptions): Promise<Answer> {
    const root = this.logsRoot;
    const recorded = readRecordedAnswers(root);
    const id = questionId(question);
    const answer = recorded[id];
    if (answer) {
      const { [id]: _used, ...rest } = recorded;
      writeRecordedAnswers(root, rest);
      return answer;
    }
    if (!this.inner) throw new AnswerLater(question);
    return this.inner.ask(question, options);
  }

  inform(message: string, stage: string): void {
    this.inner?.inform?.(message, stage);
  }
}
