import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { escapeControl } from '@orchestra/core/loader';
import type { ProcessLedger } from '@orchestra/core/handlers';
import { runProcess, type ProcessResult } from '../process/run-process.js';
import { clipText } from './clip-text.js';
import { commandEnvironment } from './command-environment.js';

/** Most characters of stdout, and of stderr, returned to the model (about 30 KB each). */
export const MAX_COMMAND_OUTPUT_CHARS = 30_000;
/** Most bytes of each stream captured from a command (1 MiB). */
const CAPTURE_BYTES = 1024 * 1024;

/** How `run_command` runs commands. */
export interface RunCommandOptions {
  /** The directory commands start in (the workspace root). */
  cwd: string;
  /** Longest a command may run, in milliseconds (the model may ask for less). */
  commandTimeoutMs: number;
  /** The environment commands start from (default `process.env`); secrets are removed from it. */
  env?: NodeJS.ProcessEnv;
  /** More variable names to remove (besides every name that looks like a key, token, secret or password). */
  scrubEnv?: readonly string[];
  /** Where each command's process group is recorded before it runs (the stage's, in a run). */
  processes?: ProcessLedger;
}

const schema = z.object({
  command: z.string().describe('The shell command (run with /bin/sh -c in the workspace root)'),
  timeout_seconds: z.number().positive().optional().describe('Stop the command after this many seconds (capped by the configured limit)'),
});

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))}s`;
}

function section(name: string, text: string): string {
  if (text === '') return '';
  return `\n--- ${name} ---\n${escapeControl(clipText(text, MAX_COMMAND_OUTPUT_CHARS)).replace(/\n$/, '')}`;
}

/** The command's outcome as the model reads it. */
export function formatCommandResult(result: ProcessResult, timeoutMs: number): string {
  const status = result.timedOut
    ? `timed out after ${seconds(timeoutMs)}; the process group was killed`
    : result.exitCode === null
      ? `killed by ${result.signal ?? 'a signal'}`
      : `exit code ${result.exitCode}`;
  const body = section('stdout', result.stdout) + section('stderr', result.stderr);
  const dropped = result.truncated ? `\n[output beyond ${CAPTURE_BYTES} bytes per stream was dropped]` : '';
  return `${status}${body || ' (no output)'}${dropped}`;
}

/** Runs one command for the model; see {@link runCommandTool}. */
export async function runWorkspaceCommand(options: RunCommandOptions, input: z.infer<typeof schema>, signal?: AbortSignal): Promise<string> {
  signal?.throwIfAborted();
  if (input.command.trim() === '') throw new Error('command is empty; give the shell command to run');
  const requested = input.timeout_seconds === undefined ? Infinity : input.timeout_seconds * 1000;
  const timeoutMs = Math.min(requested, options.commandTimeoutMs);
  const result = await runProcess({
    // The command is the model's request: one argv element, never spliced into another string.
    argv: ['/bin/sh', '-c', input.command],
    cwd: options.cwd,
    env: commandEnvironment(options.env ?? process.env, options.scrubEnv),
    timeoutMs,
    maxOutputBytes: CAPTURE_BYTES,
    ...(signal ? { signal } : {}),
    ...(options.processes ? { ledger: options.processes } : {}),
  });
  if (result.aborted) throw signal?.reason ?? new Error('run_command was stopped');
  return formatCommandResult(result, timeoutMs);
}

/**
 * The `run_command` tool: runs a shell command (`/bin/sh -c`) in the
 * workspace root, in its own process group, killed as a whole on timeout or
 * when the tool call is aborted; background jobs do not outlive it. API keys,
 * tokens and other secrets are removed from its environment.
 *
 * **Not confined**: a shell can read and write anything the orchestra
 * process can, inside the workspace or not. That is why it is not among
 * `DEFAULT_WORKSPACE_TOOLS`; offer it only to models (and prompts) you
 * would let run commands on this machine.
 */
export function runCommandTool(options: RunCommandOptions): StructuredToolInterface {
  return tool((input, config) => runWorkspaceCommand(options, input, config?.signal), {
    name: 'run_command',
    description:
      'Run a shell command with /bin/sh -c in the workspace root and get its exit code, stdout and stderr (each cut to about 30 KB). ' +
      `It is stopped after ${seconds(options.commandTimeoutMs)} (or timeout_seconds, if shorter); stdin is empty, so do not run interactive programs. ` +
      'Background processes are stopped when the command ends.',
    schema,
  });
}
