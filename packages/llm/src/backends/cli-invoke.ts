import { appendFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { LlmReporter } from '@orchestra/core';
import type { ProcessLedger } from '@orchestra/core/handlers';
import { escapeControl } from '@orchestra/core/loader';
import { ProcessStartError } from '../process/process-start-error.js';
import { DEFAULT_MAX_OUTPUT_BYTES, runProcess } from '../process/run-process.js';
import { CliAgentError, CliAgentTimeoutError } from './cli-agent-error.js';
import { stderrTail } from './cli-stderr-tail.js';

/** The file in the stage directory that keeps a CLI agent's stderr. */
export const AGENT_STDERR_FILE = 'agent-stderr.log';

/** Longest command shown in a message. */
const LABEL_CHARS = 80;

/** One run of a CLI agent. */
export interface CliInvocation {
  command: readonly string[];
  timeoutMs: number;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: string;
  signal: AbortSignal;
  report: LlmReporter;
  stageDir: string;
  /** Append stderr to the stage file (the turns of a conversation) instead of replacing it. */
  appendStderr: boolean;
  /** Where the agent's process group is recorded before it runs (the stage's). */
  processes?: ProcessLedger;
}

/** The command as shown in messages: `"claude -p"`. */
export function commandLabel(command: readonly string[]): string {
  const text = escapeControl(command.join(' '), { keepNewlines: false });
  return `"${text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text}"`;
}

async function keepStderr(invocation: CliInvocation, stderr: string): Promise<void> {
  if (stderr === '') return;
  const file = join(invocation.stageDir, AGENT_STDERR_FILE);
  try {
    await (invocation.appendStderr ? appendFile(file, stderr) : writeFile(file, stderr));
  } catch {
    // the log is an aid; failing to write it must not hide the agent's answer or error
  }
}

/** How one run of a CLI agent ended (it exited, or was killed by a signal it was not sent by orchestra). */
export interface CliAgentRun {
  /** The command as shown in messages. */
  label: string;
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** stdout without trailing whitespace, with a note when it was cut. */
  answer: string;
  /** The end of stderr, one line, control characters escaped (`''` when there was none). */
  stderrTail: string;
  durationMs: number;
}

/**
 * Runs the CLI agent once (argv, no shell) with `stdin`, streaming stdout to
 * `report.delta`, and keeps its stderr in the stage. Resolves however the
 * agent exited; throws {@link CliAgentError} when it cannot be started,
 * {@link CliAgentTimeoutError} when it ran out of time, and the signal's
 * reason when aborted.
 */
export async function runCliAgent(invocation: CliInvocation): Promise<CliAgentRun> {
  const label = commandLabel(invocation.command);
  let result;
  try {
    result = await runProcess({
      argv: invocation.command,
      cwd: invocation.cwd,
      env: invocation.env,
      stdin: invocation.stdin,
      timeoutMs: invocation.timeoutMs,
      signal: invocation.signal,
      onStdout: (text) => invocation.report.delta(text),
      ...(invocation.processes ? { ledger: invocation.processes } : {}),
    });
  } catch (error) {
    if (error instanceof ProcessStartError) throw new CliAgentError(`cli agent ${label}: ${error.message}; check cli_agent.command in orchestra.yaml`, { cause: error });
    throw error;
  }
  await keepStderr(invocation, result.stderr);
  if (result.aborted) throw invocation.signal.reason ?? new Error(`cli agent ${label} was stopped`);
  if (result.timedOut) throw new CliAgentTimeoutError(label, invocation.timeoutMs);
  const trimmed = result.stdout.trimEnd();
  return {
    label,
    exitCode: result.exitCode,
    signal: result.signal,
    answer: result.truncated && trimmed !== '' ? `${trimmed}\n\n[the answer was cut at ${DEFAULT_MAX_OUTPUT_BYTES} bytes]` : trimmed,
    stderrTail: stderrTail(result.stderr),
    durationMs: result.durationMs,
  };
}

/** Why a run of the agent failed on its own terms (a non-zero exit, a signal), or `undefined` when it exited with 0. */
export function cliAgentExitFailure(run: CliAgentRun): string | undefined {
  if (run.exitCode === 0) return undefined;
  const how = run.exitCode === null ? `was killed by ${run.signal ?? 'a signal'}` : `exited with code ${run.exitCode}`;
  return `cli agent ${run.label} ${how}${run.stderrTail ? `: ${run.stderrTail}` : ''}`;
}

/** Reports the finished call (the command's name as the model, its duration). */
export function reportCliAgentCall(invocation: Pick<CliInvocation, 'command' | 'report'>, run: CliAgentRun): void {
  invocation.report.response({ model: basename(invocation.command[0] as string), durationMs: run.durationMs });
}

/**
 * The agent's answer from a run: throws {@link CliAgentError} for an agent
 * that exited non-zero, was killed, or printed nothing.
 */
export function cliAgentAnswer(invocation: Pick<CliInvocation, 'command' | 'report'>, run: CliAgentRun): string {
  const failure = cliAgentExitFailure(run);
  if (failure) throw new CliAgentError(failure);
  if (run.answer.trim() === '') throw new CliAgentError(`cli agent ${run.label} printed nothing${run.stderrTail ? `: ${run.stderrTail}` : ''}`);
  reportCliAgentCall(invocation, run);
  return run.answer;
}

/**
 * Runs the CLI agent once (argv, no shell) with `stdin`, streaming stdout to
 * `report.delta`, and resolves with its answer (stdout without trailing
 * whitespace). Throws {@link CliAgentError} for a failed or silent agent,
 * {@link CliAgentTimeoutError} when it ran out of time, and the signal's
 * reason when aborted.
 */
export async function invokeCliAgent(invocation: CliInvocation): Promise<string> {
  return cliAgentAnswer(invocation, await runCliAgent(invocation));
}
