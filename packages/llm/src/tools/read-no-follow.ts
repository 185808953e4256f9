import { readFile } from 'node:fs/promises';
import { fsError } from './fs-error.js';
import { READ_NO_FOLLOW } from './open-flags.js';

/**
 * Reads a resolved workspace file without following a link swapped in at its
 * last component; a failure becomes a message naming the path as the model
 * wrote it (`shown`). An abort rethrows the signal's reason.
 */
export async function readNoFollow(real: string, shown: string, signal: AbortSignal | undefined): Promise<Buffer> {
  try {
    return await readFile(real, { ...(signal ? { signal } : {}), flag: READ_NO_FOLLOW });
  } catch (error) {
    signal?.throwIfAborted();
    throw fsError(error, shown);
  }
}
