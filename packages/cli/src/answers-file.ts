import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { QueuedAnswer } from '@orchestra/core';
import { pathProblem } from '@orchestra/core/handlers';

const EntrySchema = z.union([z.string(), z.object({ value: z.string(), text: z.string().optional() }).strict()]);

/**
 * Reads an `--answers` file: a JSON array whose entries are a string (option
 * key, label, yes/no or free text) or `{ "value": ..., "text": ... }`.
 * Returns the answers, or an error message naming the bad entry.
 */
export async function readAnswersFile(path: string): Promise<QueuedAnswer[] | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const problem = code === 'EISDIR' || code === 'ENOTDIR' ? pathProblem(path, { kind: 'file', what: 'an answers file' }) : undefined;
    return `cannot read answers file ${path}: ${code === 'ENOENT' ? 'no such file' : (problem?.message ?? (error as Error).message)}`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `answers file ${path} is not valid JSON: ${(error as Error).message}`;
  }
  if (!Array.isArray(data)) return `answers file ${path} must hold a JSON array of answers`;
  const answers: QueuedAnswer[] = [];
  for (const [i, entry] of data.entries()) {
    const parsed = EntrySchema.safeParse(entry);
    if (!parsed.success) {
      return `answers file ${path}: entry ${i + 1} (${JSON.stringify(entry)}) must be a string or {"value": "...", "text": "..."}`;
    }
    const value = parsed.data;
    answers.push(typeof value === 'string' ? value : { value: value.value, ...(value.text !== undefined ? { text: value.text } : {}) });
  }
  return answers;
}
