import { STATUS_FILE, parseStatusFile, type Outcome, type ParsedStatusFile } from '../engine/outcome.js';
import type { StageStore } from '../engine/store/run-store.js';

/**
 * The `status.json` a command wrote in its stage (spec Appendix C), parsed;
 * `undefined` when there is none. Read before the engine records the node's
 * final outcome in the same file.
 */
export async function readStatusFile(stage: StageStore): Promise<ParsedStatusFile | undefined> {
  const text = await stage.read(STATUS_FILE);
  return text === undefined ? undefined : parseStatusFile(text);
}

/** How a tool command that exited (not killed, not stopped) ran. */
export interface ToolExit {
  command: string;
  /** Its exit code. */
  code: number;
  /** What the exit code alone makes of it: the failure reason of a non-zero exit. */
  exitFailure?: string;
  /** `tool.output`: the start of stdout, trailing newlines removed. */
  output: string;
  /** Added to the notes (the notes on stdout truncation and on context left out of the variables), or `''`. */
  noteSuffix: string;
}

/**
 * A tool node's outcome when its command wrote `status.json`. The file
 * decides, whatever the exit code: its outcome, preferred label, suggested
 * next ids, context updates (over `tool.output`, which is set too), notes,
 * failure reason and usage. A non-zero exit is recorded in the notes, and is
 * the failure reason of a FAIL or RETRY the file gives none for. An invalid
 * file is a FAIL naming the problem (and the non-zero exit, if any).
 */
export function toolOutcomeFromStatusFile(file: ParsedStatusFile, exit: ToolExit): Outcome {
  if (!file.ok) {
    return {
      status: 'fail',
      failureReason: exit.exitFailure ? `${file.failureReason}; ${exit.exitFailure}` : file.failureReason,
      notes: `Tool failed: ${exit.command}`,
    };
  }
  const reported = file.outcome;
  const overridden = exit.code !== 0 ? ` [exit code ${exit.code}; the outcome is the one in status.json]` : '';
  const outcome: Outcome = {
    ...reported,
    contextUpdates: { 'tool.output': exit.output, ...reported.contextUpdates },
    notes: `${reported.notes ?? `Tool completed: ${exit.command} (outcome from status.json)`}${overridden}${exit.noteSuffix}`,
  };
  if ((reported.status === 'fail' || reported.status === 'retry') && !reported.failureReason) {
    outcome.failureReason = exit.exitFailure ?? `tool_command reported ${reported.status} in status.json${reported.notes ? `: ${reported.notes}` : ''}`;
  }
  return outcome;
}

/** `tool.output` from the start of stdout: trailing newlines removed, as shell command substitution `$(...)` does (only `\n`, not other whitespace). */
export function toolOutputText(stdout: string): string {
  let end = stdout.length;
  while (end > 0 && stdout.charCodeAt(end - 1) === 10) end--;
  return end === stdout.length ? stdout : stdout.slice(0, end);
}
