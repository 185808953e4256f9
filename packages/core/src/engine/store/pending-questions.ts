import type { z } from 'zod';
import type { Answer, Question } from '../question.js';
import { PendingQuestionsSchema, RecordedAnswersSchema, type PendingQuestions, type RecordedAnswers } from './records.js';
import type { RunStore } from './run-store.js';
import { CheckpointError } from './store-errors.js';

/** A question's id in the pending questions: the node that asks. */
export function questionId(question: Question): string {
  return question.stage;
}

function checked<T>(document: unknown, schema: z.ZodType<T>, what: string, store: RunStore): T | undefined {
  if (document === undefined) return undefined;
  const parsed = schema.safeParse(document);
  if (!parsed.success) throw new CheckpointError(`the ${what} of ${store.location} are not valid: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}; they were left untouched`);
  return parsed.data;
}

/** The questions a parked run waits for (none when it waits for nothing). */
export async function readPendingQuestions(store: RunStore): Promise<PendingQuestions['questions']> {
  return checked(await store.readPendingQuestions(), PendingQuestionsSchema, 'pending questions', store)?.questions ?? [];
}

/** Stores the questions a run parks with (an empty list once they are answered). */
export async function writePendingQuestions(store: RunStore, questions: readonly Question[]): Promise<void> {
  const document: PendingQuestions = { format: 'orchestra.pending/1', questions: questions.map((q) => ({ id: questionId(q), asked_at: new Date().toISOString(), question: q })) };
  return store.writePendingQuestions(document);
}

/** Answers recorded for a run, by question id. */
export async function readRecordedAnswers(store: RunStore): Promise<Record<string, Answer>> {
  return checked(await store.readAnswers(), RecordedAnswersSchema, 'recorded answers', store)?.answers ?? {};
}

/** Stores the recorded answers. */
export async function writeRecordedAnswers(store: RunStore, answers: Record<string, Answer>): Promise<void> {
  const document: RecordedAnswers = { format: 'orchestra.answers/1', answers };
  return store.writeAnswers(document);
}
