import type { RunContext } from '../engine/run-context.js';

/** `ORCHESTRA_CTX_<KEY>`: the key upper-cased, every character outside [A-Z0-9] as `_`. */
export function contextEnvName(key: string): string {
  return `ORCHESTRA_CTX_${key.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * The environment a tool command runs with: the process environment, the run
 * directory and node id, and every context value as `ORCHESTRA_CTX_<KEY>`
 * (strings as they are, other values as JSON). Context reaches commands only
 * this way, never spliced into the command text.
 */
export function toolEnvironment(context: RunContext, logsRoot: string, nodeId: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ORCHESTRA_LOGS_DIR: logsRoot, ORCHESTRA_NODE_ID: nodeId };
  for (const [key, value] of Object.entries(context.snapshot())) {
    env[contextEnvName(key)] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return env;
}
