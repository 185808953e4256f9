import { z } from 'zod';

/** Kinds of question (spec §6.2). */
export const QUESTION_TYPES = ['YES_NO', 'MULTIPLE_CHOICE', 'FREEFORM', 'CONFIRMATION'] as const;
/** Special answer values (spec §6.3). */
export const ANSWER_VALUES = ['YES', 'NO', 'SKIPPED', 'TIMEOUT'] as const;

/** A choice offered to the human: accelerator key and label. */
export const OptionSchema = z.object({ key: z.string(), label: z.string() });
/** A choice offered to the human (`OptionSchema`). */
export type Option = z.infer<typeof OptionSchema>;

/** An answer (spec §6.3): `value` is an option key, free text, or one of {@link ANSWER_VALUES}. */
export const AnswerSchema = z.object({
  value: z.string(),
  selectedOption: OptionSchema.optional(),
  text: z.string().optional(),
});
/** A human's answer (`AnswerSchema`): a value, the chosen option, free text. */
export type Answer = z.infer<typeof AnswerSchema>;

/** A question for the human (spec §6.2). */
export const QuestionSchema = z.object({
  text: z.string(),
  type: z.enum(QUESTION_TYPES),
  options: z.array(OptionSchema).default([]),
  /** The node that asks. */
  stage: z.string(),
  /** How long to wait, in milliseconds; unset waits for ever. */
  timeoutMs: z.number().positive().optional(),
  /** What a timeout answers, when set. */
  default: AnswerSchema.optional(),
  metadata: z.record(z.string(), z.unknown()).default({}),
});
/** A question put to a human (`QuestionSchema`). */
export type Question = z.infer<typeof QuestionSchema>;
/** A question as callers write it (options and metadata optional). */
export type QuestionInput = z.input<typeof QuestionSchema>;

/** The answer for "no answer in time": the question's default, else TIMEOUT. */
export function timeoutAnswer(question: Question): Answer {
  return question.default ?? { value: 'TIMEOUT' };
}

/** The option an input picks: by key, then label, case-insensitively (accelerator prefixes ignored). */
export function matchOption(input: string, options: readonly Option[]): Option | undefined {
  const wanted = input.trim().toLowerCase();
  if (!wanted) return undefined;
  return options.find((o) => o.key.toLowerCase() === wanted) ?? options.find((o) => o.label.toLowerCase() === wanted);
}
