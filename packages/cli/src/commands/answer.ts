import { RunRefusal } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { cliRunTarget } from '../cli-runs.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { reportingUsageErrors } from '../usage-errors.js';
import { shellCommand } from '../shell-quote.js';

/**
 * `orchestra answer <logs-dir> [--question ID] <answer>`: records the answer
 * to a parked run's question, checked against its options, through the
 * run's supervisor (the run is not resumed: `orchestra resume` does that). A
 * wrong answer is refused (exit 2) and the run stays parked.
 */
export async function answerCommand(logsDir: string, text: string, options: { question?: string; replace?: boolean; store?: string }, io: CliIO): Promise<number> {
  return reportingUsageErrors(io, async () => {
    const target = await cliRunTarget(logsDir, options); // not a run: refused before anything is written
    try {
      const supervisor = target.supervisor();
      let recorded: Awaited<ReturnType<typeof supervisor.answer>>;
      try {
        // With a database store, the answer that completes the run's questions queues its resume for a worker.
        recorded = await supervisor.answer(target.id, options.question, text, { resume: target.dispatch !== undefined, ...(options.replace ? { replace: true } : {}) });
      } catch (error) {
        // A run that waits for nothing is named as it was given.
        if (error instanceof RunRefusal && typeof error.details.state === 'string') throw new RunRefusal(error.code, `${logsDir} is not waiting for an answer (it is ${error.details.state})`);
        throw error;
      }
      // The messages name the pipeline's options and nodes, and the answer given: shown, never obeyed.
      const shown = recorded.key !== undefined ? `[${recorded.key}] ${recorded.label ?? ''}` : JSON.stringify(recorded.value);
      const next = recorded.dispatched
        ? 'the run is queued: a worker continues it'
        : target.dispatch !== undefined
          ? 'the run goes on once every question has an answer'
          : `continue with: ${shellCommand(['orchestra', 'resume', ...target.hint])}`;
      io.stdout(`${escapeControl(`${recorded.replaced ? 'replaced the answer with' : 'recorded'} ${shown} for ${recorded.id}`, { keepNewlines: false })}; ${next}\n`);
      return ExitCode.ok;
    } finally {
      await target.close();
    }
  });
}

