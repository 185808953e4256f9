import { z } from 'zod';

/**
 * The shapes of a conference stage's files (`<node>/conference.json`,
 * `<node>/receipts.jsonl`; the conference contract). Only what the API and
 * the page rely on is checked; every other field is kept as written.
 */

const UsageSchema = z.looseObject({ input_tokens: z.number(), output_tokens: z.number(), total_tokens: z.number() });

/** A line of `receipts.jsonl` (and an entry of `conference.json`'s `evidence`). */
export const ReceiptSchema = z.looseObject({
  receipt_id: z.string().min(1),
  tool: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  status: z.string(),
  payload: z.string(),
  sha256: z.string().optional(),
  at: z.string().optional(),
});

/** A role's part: `roles[]` of `conference.json`. */
export const ConferenceRoleSchema = z.looseObject({
  role: z.string().min(1),
  tier: z.string(),
  status: z.enum(['answered', 'abstained', 'ungrounded']),
  reply: z.string(),
  evidence_line: z.string().optional(),
  reason: z.string().optional(),
  rejections: z.array(z.looseObject({ reply: z.string(), reason: z.string() })).optional(),
  usage: UsageSchema.optional(),
  duration_ms: z.number().optional(),
});

/** `conference.json`, format `orchestra.conference/1`. */
export const ConferenceSchema = z.looseObject({
  format: z.literal('orchestra.conference/1'),
  node_id: z.string(),
  question: z.string(),
  evidence: z.array(ReceiptSchema),
  roles: z.array(ConferenceRoleSchema),
  status: z.enum(['success', 'fail']).optional(),
});
