import { resolve } from 'node:path';
import { readCheckpoint, recordAnswer } from '@orchestra/core';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { reportingUsageErrors } from '../usage-errors.js';

/**
 * `orchestra answer <logs-dir> [--question ID] <answer>`: records the answer
 * to a parked run's question, checked against its options. A wrong answer is
 * refused (exit 2) and the run stays parked.
 */
export async function answerCommand(logsDir: string, text: string, options: { question?: string }, io: CliIO): Promise<number> {
  const root = resolve(logsDir);
  return reportingUsageErrors(io, () => {
    const checkpoint = readCheckpoint(root);
    const recorded = checkpoint.status === 'parked' ? recordAnswer(root, text, options.question) : `${logsDir} is not waiting for an answer (it is ${checkpoint.status})`;
    if (typeof recorded === 'string') {
      io.stderr(`orchestra: ${recorded}\n`);
      return ExitCode.usage;
    }
    const shown = recorded.answer.selectedOption ? `[${recorded.answer.selectedOption.key}] ${recorded.answer.selectedOption.label}` : JSON.stringify(recorded.answer.value);
    io.stdout(`recorded ${shown} for ${recorded.id}; continue with: orchestra resume ${logsDir}\n`);
    return ExitCode.ok;
  });
}
