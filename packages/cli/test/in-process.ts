import { PassThrough } from 'node:stream';
import { runCli } from '../src/index.js';
import { ROOT, modelFreeEnv } from './cli-helpers.js';
import { borrowedState, withProcessState, type ProcessState } from './support/process-state.js';

/**
 * `orchestra` run in the test process through `runCli`, the function the
 * binary calls: the same exit code and the same stdout and stderr text,
 * without starting a process. For what only a real process shows (signals,
 * kills, two processes, the binary's streams), see `cli-helpers.ts`.
 */

/** What a command returned and wrote. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where and with what a command runs. */
export interface CliOptions {
  /** The working directory (default: the repository root, as the process helpers). */
  cwd?: string;
  /** The whole environment (default: {@link modelFreeEnv}: no model configuration, no colour). */
  env?: NodeJS.ProcessEnv;
  /** Standard input: this text, then its end (default: nothing, ended). */
  input?: string;
  /** Leave standard input open after `input` (nothing more comes: only timeouts end the waits). */
  keepInputOpen?: boolean;
}

/** A command running in this process, whose standard input the test writes as its prompts appear. */
export interface CliSession {
  /** Settles when the command returns. */
  done: Promise<CliResult>;
  /** Writes to its standard input. */
  write(text: string): void;
  /** Ends its standard input, after `text` (once; later calls do nothing). */
  end(text?: string): void;
  /** What it wrote so far. */
  output(): { stdout: string; stderr: string };
  /** Resolves once `stream` (default stderr) holds `text`; fails after 15 s, or when the command ends first. */
  waitFor(text: string, stream?: 'stdout' | 'stderr'): Promise<void>;
}

/** The state a command runs in: the one given, else that of a command already running, else the defaults. */
function stateOf(options: CliOptions): ProcessState {
  const running = borrowedState();
  return { cwd: options.cwd ?? running?.cwd ?? ROOT, env: options.env ?? running?.env ?? modelFreeEnv() };
}

/** Starts `orchestra ...args` in this process; see {@link CliSession}. */
export function cliSession(args: readonly string[], options: Omit<CliOptions, 'input' | 'keepInputOpen'> = {}): CliSession {
  const stdin = new PassThrough();
  const written = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };
  let ended = false;
  const io = {
    stdout: (text: string) => {
      written.stdout += text;
      changed();
    },
    stderr: (text: string) => {
      written.stderr += text;
      changed();
    },
    stdin,
  };
  const done = withProcessState(stateOf(options), () => runCli(args, io))
    .then((code) => ({ code, ...written }))
    .finally(() => {
      ended = true;
      changed();
    });
  return {
    done,
    write: (text) => void stdin.write(text),
    end: (text) => {
      if (!stdin.writableEnded) stdin.end(text ?? '');
    },
    output: () => ({ ...written }),
    waitFor: (text, stream = 'stderr') =>
      new Promise<void>((resolve, reject) => {
        const stop = (error?: Error) => {
          clearTimeout(timer);
          listeners.delete(check);
          if (error) reject(error);
          else resolve();
        };
        const check = () => {
          if (written[stream].includes(text)) stop();
          else if (ended) stop(new Error(`the command ended before its ${stream} showed ${JSON.stringify(text)}; ${stream}:\n${written[stream]}`));
        };
        const timer = setTimeout(() => stop(new Error(`timed out waiting for ${JSON.stringify(text)}; ${stream} so far:\n${written[stream]}`)), 15_000);
        listeners.add(check);
        check();
      }),
  };
}

/** Runs `orchestra ...args` in this process to its end, with `options`. */
export async function cliWith(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const session = cliSession(args, options);
  if (options.keepInputOpen) session.write(options.input ?? '');
  else session.end(options.input ?? '');
  return session.done;
}

/** Runs `orchestra ...args` in this process to its end: from the repository root, no model configuration, standard input empty. */
export function cli(...args: string[]): Promise<CliResult> {
  return cliWith(args);
}
