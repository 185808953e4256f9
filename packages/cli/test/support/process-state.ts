/**
 * What a command run in this process borrows from it: the working directory
 * and the environment (read by the commands, their configuration and the
 * tools they start), for as long as the command runs.
 */
export interface ProcessState {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** The signals a command may handle (`src/interrupt.ts`); each handler it installs must be gone when it returns. */
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

interface Borrowed {
  state: ProcessState;
  /** Commands running now (several may overlap, with the same state). */
  running: number;
  restore: () => void;
}

let borrowed: Borrowed | undefined;

/** The state the commands running in this process now have, if any. */
export function borrowedState(): ProcessState | undefined {
  return borrowed?.state;
}

/** Makes `process.env` hold exactly `env`: the real environment, so child processes and `os.homedir()` see it too. */
function setEnvironment(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (env[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

function sameEnvironment(a: NodeJS.ProcessEnv, b: NodeJS.ProcessEnv): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
  return [...keys].every((k) => a[k] === b[k]);
}

function borrow(state: ProcessState): Borrowed {
  const cwd = process.cwd();
  const env = { ...process.env };
  const exit = process.exit;
  const listeners = SIGNALS.map((sig) => process.listeners(sig));
  process.chdir(state.cwd);
  setEnvironment(state.env);
  // A command that exits the process would end the test worker: fail the test instead.
  process.exit = ((code?: number) => {
    throw new Error(`process.exit(${code ?? ''}) called by a command running in the test process`);
  }) as typeof process.exit;
  return {
    state,
    running: 0,
    restore: () => {
      process.exit = exit;
      setEnvironment(env);
      process.chdir(cwd);
      const left = SIGNALS.flatMap((sig, i) => process.listeners(sig).filter((l) => !listeners[i]?.includes(l)).map((l) => [sig, l] as const));
      for (const [sig, listener] of left) process.off(sig, listener);
      if (left.length > 0) throw new Error(`a command left ${left.map(([sig]) => sig).join(', ')} handler(s) installed`);
    },
  };
}

/**
 * Runs `work` (a command) with this process in `state`: `state.cwd` as the
 * working directory and exactly `state.env` as the environment; puts both
 * back afterwards, and fails if the command left a signal handler installed
 * or called `process.exit`. Commands that overlap must ask for the same
 * state. Vitest runs a file's tests one after another, each file in a
 * process of its own, so nothing else sees the borrowed state.
 */
export async function withProcessState<T>(state: ProcessState, work: () => Promise<T>): Promise<T> {
  if (borrowed && (borrowed.state.cwd !== state.cwd || !sameEnvironment(borrowed.state.env, state.env))) {
    throw new Error('commands running in this process at the same time need the same working directory and environment');
  }
  const current = borrowed ?? borrow(state);
  borrowed = current;
  current.running += 1;
  try {
    return await work();
  } finally {
    current.running -= 1;
    if (current.running === 0) {
      borrowed = undefined;
      current.restore();
    }
  }
}
