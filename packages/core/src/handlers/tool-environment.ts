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

/**
 * Most bytes of one `ORCHESTRA_CTX_` variable's name (32 KiB, as for a
 * value). A name cannot be cut (it would name another variable), so a key
 * whose name is longer is left out: it is only in the context file. Without
 * this bound a key of 150,000 characters made the next tool fail to start
 * (`E2BIG`).
 */
export const CONTEXT_ENV_NAME_LIMIT = CONTEXT_ENV_VALUE_LIMIT;

/** `ORCHESTRA_CTX_<KEY>`: the key upper-cased, every character outside [A-Z0-9] as `_`. */
export function contextEnvName(key: string): string {
  return `${CONTEXT_ENV_PREFIX}${key.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** A context value as an environment variable's text: strings as they are, other values as JSON; no NUL bytes, at most {@link CONTEXT_ENV_VALUE_LIMIT} bytes. */
export function contextEnvValue(value: unknown): string {
  return envText(value).text;
}

/** {@link contextEnvValue}, and whether the limit cut it. */
function envText(value: unknown): { text: string; cut: boolean } {
  const whole = (typeof value === 'string' ? value : JSON.stringify(value)).replaceAll('\0', '');
  const text = truncateUtf8(whole, CONTEXT_ENV_VALUE_LIMIT);
  return { text, cut: text.length < whole.length };
}

/** The context keys {@link toolEnvironment} could not pass whole as variables (all are in the context file). */
export interface ContextEnvLosses {
  /** Keys left out because their variable name would be over {@link CONTEXT_ENV_NAME_LIMIT}. */
  longNames: string[];
  /** Keys left out from the first value past {@link CONTEXT_ENV_BUDGET} on. */
  overBudget: string[];
  /** Keys whose value was cut to {@link CONTEXT_ENV_VALUE_LIMIT}. */
  cut: string[];
}

/** A tool command's environment and what of the context it could not hold. */
export interface ToolEnvironment {
  env: NodeJS.ProcessEnv;
  losses: ContextEnvLosses;
}

/**
 * The environment a tool command runs with: the process environment (less
 * any `ORCHESTRA_CTX_*`, `ORCHESTRA_CONTEXT_FILE` and `ORCHESTRA_STAGE_DIR`
 * variables it inherited), the run directory and node id,
 * `ORCHESTRA_CONTEXT_FILE` when `contextFile` is given,
 * `ORCHESTRA_STAGE_DIR` when `stageDir` is given, and the context values as
 * `ORCHESTRA_CTX_<KEY>` (see {@link contextEnvValue}), within
 * {@link CONTEXT_ENV_BUDGET}; a key whose name is over
 * {@link CONTEXT_ENV_NAME_LIMIT} is left out. Context reaches commands only
 * this way, never spliced into the command text.
 */
export function toolEnvironment(context: RunContext, logsRoot: string, nodeId: string, contextFile?: string, stageDir?: string): NodeJS.ProcessEnv {
  return buildToolEnvironment(context, logsRoot, nodeId, contextFile, stageDir).env;
}

/** {@link toolEnvironment}, with the keys it left out or cut (for the stage's notes, see {@link describeContextEnvLosses}). */
export function buildToolEnvironment(context: RunContext, logsRoot: string, nodeId: string, contextFile?: string, stageDir?: string): ToolEnvironment {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith(CONTEXT_ENV_PREFIX) && name !== CONTEXT_FILE_ENV && name !== STAGE_DIR_ENV) env[name] = value;
  }
  env.ORCHESTRA_LOGS_DIR = logsRoot;
  env.ORCHESTRA_NODE_ID = nodeId;
  if (contextFile !== undefined) env[CONTEXT_FILE_ENV] = contextFile;
  if (stageDir !== undefined) env[STAGE_DIR_ENV] = stageDir;
  const losses: ContextEnvLosses = { longNames: [], overBudget: [], cut: [] };
  // Two keys with one name (`a.b`, `a_b`): the later value wins, as a variable can hold only one.
  const values = new Map<string, { key: string; value: unknown }>();
  for (const [key, value] of Object.entries(context.snapshot())) {
    const name = contextEnvName(key);
    // The name is ASCII: its length is its size in bytes.
    if (name.length > CONTEXT_ENV_NAME_LIMIT) losses.longNames.push(key);
    else values.set(name, { key, value });
  }
  let used = 0;
  let full = false;
  for (const [name, { key, value }] of values) {
    const { text, cut } = envText(value);
    used += name.length + 1 + Buffer.byteLength(text) + 1; // NAME=value\0
    if (full || used > CONTEXT_ENV_BUDGET) {
      full = true;
      losses.overBudget.push(key);
      continue;
    }
    if (cut) losses.cut.push(key);
    env[name] = text;
  }
  return { env, losses };
}

/** How many keys a note names before it says how many more there are. */
const NAMED_KEYS = 5;
/** How many characters of a key a note shows. */
const KEY_SHOWN = 40;

function keyList(keys: readonly string[]): string {
  const shown = keys.slice(0, NAMED_KEYS).map((key) => (key.length > KEY_SHOWN ? `${key.slice(0, KEY_SHOWN)}...` : key));
  return `${shown.join(', ')}${keys.length > NAMED_KEYS ? ` and ${keys.length - NAMED_KEYS} more` : ''}`;
}

function keys(n: number): string {
  return `${n} key${n === 1 ? '' : 's'}`;
}

/**
 * A note for a tool stage (added to its `notes`) saying which context keys
 * its command did not get whole as `ORCHESTRA_CTX_` variables, or `''`:
 * ` (context not passed as ORCHESTRA_CTX_ variables, only in the context
 * file: 1 key with a name over 32 KiB (aaaa...); values cut to 32 KiB in
 * ORCHESTRA_CTX_ variables: big)`.
 */
export function describeContextEnvLosses(losses: ContextEnvLosses): string {
  const parts: string[] = [];
  const kib = (bytes: number) => `${bytes / 1024} KiB`;
  if (losses.longNames.length > 0) parts.push(`${keys(losses.longNames.length)} with a name over ${kib(CONTEXT_ENV_NAME_LIMIT)} (${keyList(losses.longNames)})`);
  if (losses.overBudget.length > 0) parts.push(`${keys(losses.overBudget.length)} past the ${kib(CONTEXT_ENV_BUDGET)} budget (${keyList(losses.overBudget)})`);
  const left = parts.length > 0 ? `context not passed as ${CONTEXT_ENV_PREFIX} variables, only in the context file: ${parts.join('; ')}` : '';
  const cut = losses.cut.length > 0 ? `values cut to ${kib(CONTEXT_ENV_VALUE_LIMIT)} in ${CONTEXT_ENV_PREFIX} variables: ${keyList(losses.cut)}` : '';
  const all = [left, cut].filter(Boolean).join('; ');
  return all ? ` (${all})` : '';
}
