import { spawn, type ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { KILL_GRACE_MS, killProcessGroup, signalProcessGroup } from '../os/kill-process-group.js';
import { HeadCapture, TailCapture } from './output-capture.js';
import { OutputLog, type OutputSink } from './output-log.js';
import { trackProcessGroup } from './process-groups.js';

/** Grace between SIGTERM and SIGKILL when a command is stopped (the one of every process group orchestra stops). */
export { KILL_GRACE_MS };
/**
 * How long, once the command's shell has exited, its stdout and stderr pipes
 * may stay open before they are closed: a background job (`sleep 60 &`) or a
 * process that left the group (`setsid ...`) can hold them for ever.
 */
export const OUTPUT_DRAIN_MS = 200;
/**
 * How many bytes of each output stream may be read, once the shell has
 * exited, without waiting for the disk: far more than a pipe or socket
 * buffer holds, so a slow disk cannot make the drain cut off what the
 * command wrote; bounded, so a background job cannot fill memory.
 */
export const DRAIN_UNTHROTTLED_BYTES = 4 * 1024 * 1024;
/** The exit code of the start gate when it closes without the start line: the command never ran. */
export const GATE_CLOSED_EXIT = 125;
/** What orchestra writes to the start gate (fd 3) to let the command run. */
export const GATE_LINE = 'start\n';

/**
 * The `/bin/sh -c` script every tool command is started through: it waits
 * for one line on fd 3 and only then runs the command, which it gets as its
 * first positional parameter (`$1`, never part of the script text). When
 * fd 3 ends without the line (orchestra stopped, or refused the start), it
 * exits with {@link GATE_CLOSED_EXIT} without running anything.
 */
const GATE_LINES = [
  `IFS= read -r __orchestra_gate <&3 || exit ${GATE_CLOSED_EXIT}`,
  'exec 3<&-',
  `[ "$__orchestra_gate" = start ] || exit ${GATE_CLOSED_EXIT}`,
  'unset __orchestra_gate',
];
export const GATE_SCRIPT = [...GATE_LINES, 'exec /bin/sh -c "$1"'].join('\n');

/**
 * The same gate for a program and its arguments (no shell command): they
 * come as the positional parameters (`"$@"`, never part of the script text)
 * and replace the shell once the start line has come
 * (`spawn('/bin/sh', ['-c', EXEC_GATE_SCRIPT, name, program, ...args])`).
 */
export const EXEC_GATE_SCRIPT = [...GATE_LINES, 'exec "$@"'].join('\n');

/** Told about every tool process group before its command runs (so a later run can clean up after a crash). */
export interface ProcessStarter {
  /**
   * Called with the PID (= process group id) of a started command, before it
   * runs; the command waits until the returned promise settles, and is not
   * run at all when it rejects.
   */
  started(pid: number, description: string): void | Promise<void>;
  /** Called once the command has exited (after a successful {@link ProcessStarter.started}). */
  exited?(pid: number): void | Promise<void>;
}

/** What {@link runToolProcess} runs, and where its output goes. */
export interface ToolProcessOptions {
  /** Shell text, run with `/bin/sh -c`. */
  command: string;
  cwd: string;
  /** The complete environment of the command. */
  env: NodeJS.ProcessEnv;
  /** Stops the whole process group when aborted (`aborted` in the result). */
  signal: AbortSignal;
  /** Opens what receives stdout, byte for byte (`stdout.log`, created or emptied before the command starts). */
  stdout: OutputSink;
  /** Opens what receives stderr, byte for byte (`stderr.log`, created or emptied before the command starts). */
  stderr: OutputSink;
  /** Most bytes of the start of stdout kept in memory. */
  stdoutHeadBytes: number;
  /** Most bytes of the end of stderr kept in memory. */
  stderrTailBytes: number;
  /**
   * Called with the PID once the process exists, before the command runs;
   * awaited. When it throws, the command is not run and the promise rejects
   * with that error.
   */
  beforeStart?: (pid: number) => void | Promise<void>;
  /**
   * Called with the PID once the shell has exited and its output is closed,
   * when `beforeStart` succeeded (also after an abort); awaited. Background
   * jobs the command left may still run.
   */
  afterExit?: (pid: number) => void | Promise<void>;
}

/** How a tool command ended. */
export interface ToolProcessResult {
  /** The exit code; null when a signal ended the shell. */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Stopped because `signal` was aborted. */
  aborted: boolean;
  /** The start of stdout (the whole of it is in the stdout file). */
  stdout: HeadCapture;
  /** The end of stderr (the whole of it is in the stderr file). */
  stderr: TailCapture;
}

type Exit = { code: number | null; signal: NodeJS.Signals | null } | Error;

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // Only a failure to start counts (no 'exit' follows it); a later error (a failed kill) changes nothing.
    child.on('error', (error) => {
      if (child.pid === undefined) resolve(error);
    });
  });
}

/** Resolves when `promise` does, or after `ms`, whichever comes first. */
function atMost(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Closes every log; the first write error, if any. */
async function closeLogs(logs: readonly OutputLog[]): Promise<unknown> {
  const results = await Promise.allSettled(logs.map((log) => log.close()));
  return results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
}

async function openLogs(options: ToolProcessOptions, stdout: HeadCapture, stderr: TailCapture): Promise<[OutputLog, OutputLog]> {
  const out = await OutputLog.open(options.stdout, stdout);
  try {
    return [out, await OutputLog.open(options.stderr, stderr)];
  } catch (error) {
    await out.close().catch(() => {});
    throw error;
  }
}

/**
 * Runs a tool command as the leader of its own process group (tracked with
 * {@link trackProcessGroup}), streaming stdout and stderr to files as raw
 * bytes and keeping only a bounded part of each in memory.
 *
 * The command starts behind a gate ({@link GATE_SCRIPT}): `beforeStart` runs
 * first, with the PID, so the group can be recorded before the command does
 * anything; if orchestra dies meanwhile, the command never runs.
 *
 * Resolves once the shell has exited, after at most {@link OUTPUT_DRAIN_MS}
 * more for its output (whatever still holds the pipes is cut off) and once
 * both files are closed. Background jobs the command leaves running are not
 * killed. On abort the whole group is stopped with `killProcessGroup`
 * (SIGTERM, then SIGKILL after {@link KILL_GRACE_MS}), what is left of it
 * gets SIGKILL once the shell has exited, and the promise resolves only once
 * no process of the group is alive. Rejects when the command cannot be
 * started, when `beforeStart` or `afterExit` throws, or when an output file
 * cannot be written.
 */
export async function runToolProcess(options: ToolProcessOptions): Promise<ToolProcessResult> {
  const stdout = new HeadCapture(options.stdoutHeadBytes);
  const stderr = new TailCapture(options.stderrTailBytes);
  const logs = await openLogs(options, stdout, stderr);
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', GATE_SCRIPT, 'orchestra-tool', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    // Invalid arguments (a NUL byte in the command) throw synchronously.
    await closeLogs(logs);
    throw error;
  }
  const exited = exitOf(child);
  logs[0].attach(child.stdout);
  logs[1].attach(child.stderr);
  const pid = child.pid;
  if (pid === undefined) {
    const exit = await exited;
    await closeLogs(logs);
    throw exit instanceof Error ? exit : new Error('tool command could not be started');
  }
  const untrack = trackProcessGroup(pid);
  try {
    return await supervise(child, pid, exited, logs, { stdout, stderr }, options);
  } finally {
    untrack();
  }
}

async function supervise(
  child: ChildProcess,
  pid: number,
  exited: Promise<Exit>,
  logs: readonly OutputLog[],
  captures: { stdout: HeadCapture; stderr: TailCapture },
  options: ToolProcessOptions,
): Promise<ToolProcessResult> {
  const { signal } = options;
  const gate = child.stdio[3] as Writable | null | undefined;
  gate?.on('error', () => {}); // the shell is gone: its exit tells the rest
  let aborted = false;
  /** The stop of the whole group, once aborted. */
  let stopped: Promise<boolean> | undefined;
  const onAbort = () => {
    aborted = true;
    stopped = killProcessGroup(pid);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });

  let refused: { error: unknown } | undefined;
  try {
    await options.beforeStart?.(pid);
  } catch (error) {
    refused = { error };
  }
  if (refused || aborted) {
    gate?.destroy(); // EOF without the line: the gate exits without running the command
    signalProcessGroup(pid, 'SIGKILL');
  } else {
    gate?.end(GATE_LINE);
  }

  const exit = await exited;
  signal.removeEventListener('abort', onAbort);
  if (aborted) signalProcessGroup(pid, 'SIGKILL'); // anything the shell left behind
  await stopped;
  for (const log of logs) log.unthrottle(DRAIN_UNTHROTTLED_BYTES);
  await atMost(Promise.all(logs.map((log) => log.ended)), OUTPUT_DRAIN_MS);
  const writeError = await closeLogs(logs);
  if (refused) throw refused.error;
  await options.afterExit?.(pid);
  if (exit instanceof Error) throw exit;
  if (!aborted && writeError !== undefined) throw writeError;
  return { code: exit.code, signal: exit.signal, aborted, ...captures };
}
