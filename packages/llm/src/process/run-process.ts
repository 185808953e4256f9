import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { EXEC_GATE_SCRIPT, GATE_LINE, KILL_GRACE_MS, killProcessGroup, signalProcessGroup, trackProcessGroup, type ProcessLedger } from '@orchestra/core/handlers';
import { CappedOutput } from './capped-output.js';
import { ProcessStartError } from './process-start-error.js';
import { resolveProgram } from './resolve-program.js';

/** Most bytes of stdout, and of stderr, kept when nothing says otherwise (1 MiB each). */
export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** Grace between SIGTERM and SIGKILL when a process group is stopped (core's, for every group orchestra stops). */
export { KILL_GRACE_MS };
/**
 * How long, after the command itself has exited, its output pipes may stay
 * open (held by a process that left its group) before they are closed.
 */
export const DRAIN_MS = 2000;

/** What {@link runProcess} runs, and how. */
export interface RunProcessOptions {
  /** The program and its arguments; run without a shell (`argv[0]` is looked up on `PATH`). */
  argv: readonly string[];
  cwd: string;
  /** The complete environment of the process. */
  env: NodeJS.ProcessEnv;
  /** Written to the process's stdin, which is then closed; without it stdin is `/dev/null`. */
  stdin?: string;
  /** Stops the process group after this long (`timedOut` in the result). */
  timeoutMs?: number;
  /** Stops the process group when aborted (`aborted` in the result). */
  signal?: AbortSignal;
  /** Most bytes kept of stdout and of stderr, each (default {@link DEFAULT_MAX_OUTPUT_BYTES}). */
  maxOutputBytes?: number;
  /** Receives stdout as it arrives (whole UTF-8 characters, up to `maxOutputBytes`). Must not throw. */
  onStdout?: (chunk: string) => void;
  /**
   * The run's record of process groups (a stage's `processes`). With it, the
   * program starts behind a gate: its group is recorded first, and only then
   * does the program run (not at all when recording fails: the promise
   * rejects with that error); the record is removed once it has exited. A
   * resumed run stops a group that a killed orchestra left in the record.
   */
  ledger?: ProcessLedger;
}

/** Longest command text kept in a process record. */
const RECORDED_COMMAND_CHARS = 200;

/** How a process ended. */
export interface ProcessResult {
  /** The exit code; null when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Stopped because `timeoutMs` passed. */
  timedOut: boolean;
  /** Stopped because `signal` was aborted (or never started: it was aborted already). */
  aborted: boolean;
  /** stdout or stderr went past `maxOutputBytes` and was cut. */
  truncated: boolean;
  durationMs: number;
}

/** SIGKILL, at once, to whatever is left of the group. */
function killGroup(pid: number | undefined): void {
  if (pid !== undefined) signalProcessGroup(pid, 'SIGKILL');
}

function notStarted(): ProcessResult {
  return { exitCode: null, signal: null, stdout: '', stderr: '', timedOut: false, aborted: true, truncated: false, durationMs: 0 };
}

/**
 * Runs a program (no shell: `argv` is passed as it is) as the leader of its
 * own process group, tracked with core's `trackProcessGroup` so orchestra's
 * forced exit (`killRunningTools`) stops it too. On timeout or abort the whole
 * group is stopped with core's `killProcessGroup` (SIGTERM, then SIGKILL after
 * {@link KILL_GRACE_MS}): children and grandchildren included, and the
 * promise resolves only once none of them is alive. When the program exits,
 * whatever it left running in its group (background jobs) is killed as well,
 * so nothing started on the run's behalf outlives it. Resolves with the
 * outcome (a non-zero exit is not an error); rejects with
 * {@link ProcessStartError} when the program cannot be started.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const [file, ...args] = options.argv;
  if (file === undefined || file === '') return Promise.reject(new Error('runProcess: argv is empty'));
  if (options.signal?.aborted) return Promise.resolve(notStarted());
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const { ledger } = options;
    let child: ChildProcess;
    try {
      const stdin = options.stdin === undefined ? 'ignore' : 'pipe';
      child = ledger
        ? // The program as the positional parameters of the gate's shell: never part of the script text.
          spawn('/bin/sh', ['-c', EXEC_GATE_SCRIPT, 'orchestra-gate', resolveProgram(file, options.cwd, options.env), ...args], {
            cwd: options.cwd,
            env: options.env,
            detached: true,
            windowsHide: true,
            stdio: [stdin, 'pipe', 'pipe', 'pipe'],
          })
        : spawn(file, args, { cwd: options.cwd, env: options.env, detached: true, shell: false, windowsHide: true, stdio: [stdin, 'pipe', 'pipe'] });
    } catch (error) {
      // Invalid arguments (a NUL byte in argv or env) throw synchronously; so does a program not found for the gate.
      reject(new ProcessStartError(file, options.cwd, error));
      return;
    }
    const pid = child.pid;
    const untrack = pid === undefined ? () => {} : trackProcessGroup(pid);
    const gate = ledger ? (child.stdio[3] as Writable | null | undefined) : undefined;
    gate?.on('error', () => {}); // the shell is gone: its exit tells the rest
    /** The record of the group, once written; undefined until then (or without a ledger). */
    let recorded: Promise<void> | undefined;
    let recordFailure: { error: unknown } | undefined;
    if (ledger && pid !== undefined) {
      const command = options.argv.join(' ').slice(0, RECORDED_COMMAND_CHARS);
      Promise.resolve()
        .then(() => ledger.started(pid, command))
        .then(
          () => {
            recorded = Promise.resolve();
            if (stopping) gate?.destroy(); // stopped while it was being recorded: the program never runs
            else gate?.end(GATE_LINE);
          },
          (error: unknown) => {
            recordFailure = { error };
            gate?.destroy(); // end of input without the start line: the gate exits without running anything
          },
        );
    }
    const limit = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    const stdout = new CappedOutput(limit);
    const stderr = new CappedOutput(limit);
    const decoder = new StringDecoder('utf8');
    const emit = (text: string) => {
      if (!text || !options.onStdout) return;
      try {
        options.onStdout(text);
      } catch {
        // a listener's failure must not take the process runner down
      }
    };
    child.stdout?.on('data', (chunk: Buffer) => {
      const kept = stdout.push(chunk);
      if (kept.length > 0) emit(decoder.write(kept));
    });
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    if (child.stdin) {
      child.stdin.on('error', () => {}); // EPIPE: the program does not read its stdin
      child.stdin.end(options.stdin);
    }

    let timedOut = false;
    let aborted = false;
    let stopping = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    const timers: NodeJS.Timeout[] = [];
    const later = (ms: number, fn: () => void) => {
      const timer = setTimeout(fn, ms);
      timer.unref();
      timers.push(timer);
    };
    /** The stop of the whole group, once stopping. */
    let stopped: Promise<boolean> | undefined;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      if (gate && !recorded) gate.destroy();
      if (pid !== undefined) stopped = killProcessGroup(pid);
    };
    const onAbort = () => {
      aborted = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs !== undefined && Number.isFinite(options.timeoutMs) && options.timeoutMs > 0) {
      later(options.timeoutMs, () => {
        if (aborted) return;
        timedOut = true;
        stop();
      });
    }
    const cleanup = () => {
      untrack();
      options.signal?.removeEventListener('abort', onAbort);
      for (const timer of timers) clearTimeout(timer);
    };

    child.on('error', (error) => {
      // Failing to start (no 'exit' follows); later errors (a failed kill) change nothing.
      if (settled || exitCode !== null || exitSignal !== null || child.pid !== undefined) return;
      settled = true;
      cleanup();
      reject(new ProcessStartError(file, options.cwd, error));
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      killGroup(pid); // background jobs it left in its group
      // A process outside the group may still hold the pipes: stop waiting for them.
      later(DRAIN_MS, () => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      });
    });
    child.on('close', async (code, signal) => {
      if (settled) return;
      settled = true;
      cleanup();
      if (stopping) killGroup(pid); // anything still left of a stopped group
      await stopped;
      emit(decoder.end());
      if (recordFailure) {
        reject(recordFailure.error);
        return;
      }
      if (recorded && ledger && pid !== undefined) {
        try {
          await ledger.exited(pid);
        } catch {
          // a record left behind names a group that is gone: a resumed run checks before it stops anything
        }
      }
      resolve({
        exitCode: exitCode ?? code,
        signal: exitSignal ?? signal,
        stdout: stdout.text(),
        stderr: stderr.text(),
        timedOut,
        aborted,
        truncated: stdout.truncated || stderr.truncated,
        durationMs: performance.now() - started,
      });
    });
  });
}
