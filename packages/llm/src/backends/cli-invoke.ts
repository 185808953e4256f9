import { appendFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { LlmReporter, ProcessLedger } from '@orchestra/core';
import { escapeControl } from '@orchestra/core';
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

/**
 * Runs the CLI agent once (argv, no shell) with `stdin`, streaming stdout to
 * `report.delta`, and resolves with its answer (stdout without trailing
 * whitespace). Throws {@link CliAgentError} for a failed or silent agent,
 * {@link CliAgentTimeoutError} when it ran out of time, and the signal's
 * reason when aborted.
 */
export async function invokeCliAgent(invocation: CliInvocation): Promise<string> {
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
  const tail = stderrTail(result.stderr);
  const because = tail ? `: ${tail}` : '';
  if (result.exitCode !== 0) {
    const how = result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
    throw new CliAgentError(`cli agent ${label} ${how}${because}`);
  }
  const answer = result.stdout.trimEnd();
  if (answer.trim() === '') throw new CliAgentError(`cli agent ${label} printed nothing${because}`);
  invocation.report.response({ model: basename(invocation.command[0] as string), durationMs: result.durationMs });
  return result.truncated ? `${answer}\n\n[the answer was cut at ${DEFAULT_MAX_OUTPUT_BYTES} bytes]` : answer;
}
