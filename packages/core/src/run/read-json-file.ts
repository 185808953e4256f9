import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { CheckpointError } from '../engine/store/store-errors.js';

/**
 * Reads a JSON file of a run directory and checks it against `schema`:
 * `undefined` when the file does not exist; a {@link CheckpointError} naming
 * the file when it cannot be read, is not JSON (a torn write) or does not
 * fit. The file is never modified here.
 */
export function readJsonFile<T>(path: string, schema: z.ZodType<T>, what: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CheckpointError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(`${path} is corrupt or truncated (not valid JSON); it was left untouched`, { cause: error });
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
    throw new CheckpointError(`${path} is not ${what}${where}: ${issue?.message ?? 'unexpected shape'}; it was left untouched`);
  }
  return parsed.data;
}
