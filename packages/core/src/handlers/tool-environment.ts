import type { RunContext } from '../engine/run-context.js';
import { truncateUtf8 } from './utf8-bounds.js';

/** The prefix of the variables context values are passed in. */
export const CONTEXT_ENV_PREFIX = 'ORCHESTRA_CTX_';
/** The variable naming the file that holds the whole context as JSON. */
export const CONTEXT_FILE_ENV = 'ORCHESTRA_CONTEXT_FILE';
/** The variable naming the node's stage directory, where a command may write `status.json`. */
export const STAGE_DIR_ENV = 'ORCHESTRA_STAGE_DIR';
/**
 * Most bytes (UTF-8) of one context value passed as an `ORCHESTRA_CTX_`
 * variable (32 KiB); longer values are cut on a character boundary. Linux
 * refuses to start a program with any one variable over 128 KiB (`E2BIG`).
 */
export const CONTEXT_ENV_VALUE_LIMIT = 32 * 1024;
/**
 * Most bytes of all `ORCHESTRA_CTX_` variables together (256 KiB, counting
 * `NAME=value`): values are added in context order, and from the first one
 * that does not fit, it and every later one are left out (they are only in
 * the context file). Keeps the whole environment well under the kernel's
 * limit for arguments and environment together.
 */
export const CONTEXT_ENV_BUDGET = 256 * 1024;

/** `ORCHESTRA_CTX_<KEY>`: the key upper-cased, every character outside [A-Z0-9] as `_`. */
export function contextEnvName(key: string): string {
  return `${CONTEXT_ENV_PREFIX}${key.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** A context value as an environment variable's text: strings as they are, other values as JSON; no NUL bytes, at most {@link CONTEXT_ENV_VALUE_LIMIT} bytes. */
export function contextEnvValue(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return truncateUtf8(text.replaceAll('\0', ''), CONTEXT_ENV_VALUE_LIMIT);
}

/**
 * The environment a tool command runs with: the process environment (less
 * any `ORCHESTRA_CTX_*`, `ORCHESTRA_CONTEXT_FILE` and `ORCHESTRA_STAGE_DIR`
 * variables it inherited), the run directory and node id,
 * `ORCHESTRA_CONTEXT_FILE` when `contextFile` is given,
 * `ORCHESTRA_STAGE_DIR` when `stageDir` is given, and the context values as
 * `ORCHESTRA_CTX_<KEY>` (see {@link contextEnvValue}), within
 * {@link CONTEXT_ENV_BUDGET}. Context reaches commands only this way, never
 * spliced into the command text.
 */
export function toolEnvironment(context: RunContext, logsRoot: string, nodeId: string, contextFile?: string, stageDir?: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith(CONTEXT_ENV_PREFIX) && name !== CONTEXT_FILE_ENV && name !== STAGE_DIR_ENV) env[name] = value;
  }
  env.ORCHESTRA_LOGS_DIR = logsRoot;
  env.ORCHESTRA_NODE_ID = nodeId;
  if (contextFile !== undefined) env[CONTEXT_FILE_ENV] = contextFile;
  if (stageDir !== undefined) env[STAGE_DIR_ENV] = stageDir;
  // Two keys with one name (`a.b`, `a_b`): the later value wins, as a variable can hold only one.
  const values = new Map<string, unknown>();
  for (const [key, value] of Object.entries(context.snapshot())) values.set(contextEnvName(key), value);
  let used = 0;
  for (const [name, value] of values) {
    const text = contextEnvValue(value);
    used += Buffer.byteLength(name) + 1 + Buffer.byteLength(text) + 1; // NAME=value\0
    if (used > CONTEXT_ENV_BUDGET) break;
    env[name] = text;
  }
  return env;
}
