import { escapeControl, isOrchestraError, loadPipelineFile, type LoadResult } from '@orchestra/core/loader';
import type { CliIO } from './io.js';

/**
 * Loads a pipeline file for a command. An unreadable file is reported on
 * stderr and gives undefined (the command exits 2); other errors propagate.
 */
export async function loadForCommand(file: string, io: CliIO): Promise<LoadResult | undefined> {
  try {
    return await loadPipelineFile(file);
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return undefined;
  }
}
