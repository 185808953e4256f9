import { resolve } from 'node:path';
import { FileRunStore, escapeControl, readCheckpoint, recordAnswer } from '@orchestra/core';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { reportingUsageErrors } from '../usage-errors.js';
import { shellCommand } from '../shell-quote.js';

/**
 * `orchestra answer <logs-dir> [--question ID] <answer>`: records the answer
 * to a parked run's question, checked against its options. A wrong answer is
 * refused (exit 2) and the run stays parked.
 */
export async function answerCommand(logsDir: string, text: string, options: { question?: string; replace?: boolean }, io: CliIO): Promise<number> {
  const root = resolve(logsDir);
  return reportingUsageErrors(io, async () => {
    const store = new FileRunStore(root);
    store.readManifest(); // not a run: refused before anything is written
    // Held while the answer is recorded: a run another process drives is refused (naming it).
    const lease = store.acquire();
    let recorded: Awaited<ReturnType<typeof recordAnswer>>;
    try {
      const checkpoint = readCheckpoint(root);
      recorded =
        checkpoint.status === 'parked'
          ? await recordAnswer(store, text, { ...(options.question !== undefined ? { id: options.question } : {}), ...(options.replace ? { replace: true } : {}) })
          : `${logsDir} is not waiting for an answer (it is ${checkpoint.status})`;
    } finally {
      lease.release();
    }
    // The messages name the pipeline's options and nodes, and the answer given: shown, never obeyed.
    if (typeof recorded === 'string') {
      io.stderr(`orchestra: ${escapeControl(recorded, { keepNewlines: false })}\n`);
      return ExitCode.usage;
    }
    const shown = recorded.answer.selectedOption ? `[${recorded.answer.selectedOption.key}] ${recorded.answer.selectedOption.label}` : JSON.stringify(recorded.answer.value);
    io.stdout(`${escapeControl(`${recorded.replaced ? 'replaced the answer with' : 'recorded'} ${shown} for ${recorded.id}`, { keepNewlines: false })}; continue with: ${shellCommand(['orchestra', 'resume', logsDir])}\n`);
    return ExitCode.ok;
  });
}
