import { CheckpointError } from './store-errors.js';

/** What the record schemas (zod) offer for checking a value. */
interface RecordSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
}

/**
 * A stored JSON record (a manifest, checkpoint, process record) read back
 * and checked against its schema, for stores that keep records as text (in
 * memory, in a database): a damaged one is a {@link CheckpointError} saying
 * which record of which run, as the file store says it of its files.
 */
export function parseRecord<T>(text: string, schema: RecordSchema<T>, what: string, location: string): T {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CheckpointError(`the ${what} of ${location} is damaged (not valid JSON)`, { cause: error });
  }
  const result = schema.safeParse(data);
  if (!result.success) throw new CheckpointError(`the ${what} of ${location} is not valid: ${result.error.issues[0]?.message ?? 'unexpected shape'}`);
  return result.data;
}
