import { CheckpointError, type StageStore } from '@orchestra/core';
import type { z } from 'zod';
import type { ConferenceJson, ConferenceStageJson, ReceiptJson } from '../api-types.js';
import { ConferenceSchema, ReceiptSchema } from './conference-schema.js';

/** The files of a conference stage (the conference contract). */
export const CONFERENCE_FILE = 'conference.json';
export const RECEIPTS_FILE = 'receipts.jsonl';

function problem(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue && issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue?.message ?? 'not valid'}`;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The lines of a `receipts.jsonl`, parsed. A last line cut short (the chief
 * was writing it, or its process died) is left out; any other line that is
 * not a receipt is a `CheckpointError`.
 */
export function parseReceipts(text: string, where: string): ReceiptJson[] {
  const lines = text.split('\n');
  const torn = !text.endsWith('\n');
  const receipts: ReceiptJson[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const json = parseJson(line);
    if (!json.ok) {
      if (torn && i === lines.length - 1) break;
      throw new CheckpointError(`${where}/${RECEIPTS_FILE}:${i + 1} is not valid JSON`);
    }
    const receipt = ReceiptSchema.safeParse(json.value);
    if (!receipt.success) throw new CheckpointError(`${where}/${RECEIPTS_FILE}:${i + 1} is not a receipt (${problem(receipt.error)})`);
    receipts.push(json.value as ReceiptJson); // as written: checked, not rebuilt
  }
  return receipts;
}

/**
 * A conference stage's record, read through its {@link StageStore}:
 * `conference.json` checked against the contract, with the lines of
 * `receipts.jsonl`. `undefined` when the stage has no `conference.json`
 * (not a conference, or one that has not finished); a damaged file is a
 * `CheckpointError`. `where` names the stage in messages.
 */
export async function readConferenceRecord(stage: StageStore, where: string = stage.nodeId): Promise<ConferenceStageJson | undefined> {
  const text = await stage.read(CONFERENCE_FILE);
  if (text === undefined) return undefined;
  const json = parseJson(text);
  if (!json.ok) throw new CheckpointError(`${where}/${CONFERENCE_FILE} is corrupt or truncated (not valid JSON)`);
  const record = ConferenceSchema.safeParse(json.value);
  if (!record.success) throw new CheckpointError(`${where}/${CONFERENCE_FILE} is not a conference record (${problem(record.error)})`);
  const receipts = await stage.read(RECEIPTS_FILE);
  // The schema checks what the page relies on; the record is passed on as written (fields in their order).
  return { conference: json.value as ConferenceJson, receipts: receipts === undefined ? [] : parseReceipts(receipts, where) };
}
