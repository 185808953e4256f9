import type { Graph, GraphNode } from '@orchestra/core';
import type { ProcessLedger } from '@orchestra/core/handlers';
import { escapeControl } from '@orchestra/core/loader';
import { ProcessStartError } from '../process/process-start-error.js';
import { runProcess } from '../process/run-process.js';
import { clipText } from './clip-text.js';

/** How long a hook may run when nothing says otherwise (30 s). */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
/** Most characters of a hook's output kept (for the stage log and the model). */
export const MAX_HOOK_OUTPUT_CHARS = 4000;

/** The hook commands of a node (spec §9.7). */
export interface ToolHooks {
  /** Runs before every tool call; a non-zero exit skips the call. */
  pre?: string;
  /** Runs after every tool call; its failure is recorded, nothing more. */
  post?: string;
}

/** When a hook runs. */
export type ToolHookPhase = 'pre' | 'post';

/** How the tool call ended, as a post-hook is told. */
export type HookedToolStatus = 'ok' | 'error' | 'refused';

function hookOf(node: GraphNode, graph: Graph, key: string): string | undefined {
  const value = node.attributes[key] ?? graph.attributes[key];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/**
 * The `tool_hooks.pre` / `tool_hooks.post` commands for `node`: the node's
 * attribute when it has one, else the graph's. An empty value (on the node)
 * means no hook, so a node can turn off the graph's hook.
 */
export function hooksFor(node: GraphNode, graph: Graph): ToolHooks {
  const hooks: ToolHooks = {};
  const pre = hookOf(node, graph, 'tool_hooks.pre');
  const post = hookOf(node, graph, 'tool_hooks.post');
  if (pre !== undefined) hooks.pre = pre;
  if (post !== undefined) hooks.post = post;
  return hooks;
}

/** One run of a hook around one tool call. */
export interface ToolHookRun {
  /** The hook command as the pipeline author wrote it (run with `/bin/sh -c`). */
  command: string;
  phase: ToolHookPhase;
  /** The tool's name. */
  tool: string;
  callId: string;
  nodeId: string;
  /** The tool call's arguments. */
  args: unknown;
  /** The tool's result (post-hooks). */
  result?: string;
  /** How the tool call ended (post-hooks). */
  status?: HookedToolStatus;
  /** Where the hook runs (the directory orchestra was started from). */
  cwd: string;
  /** The environment to start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** Longest the hook may run (default {@link DEFAULT_HOOK_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Where the hook's process group is recorded before it runs (the stage's, in a run). */
  processes?: ProcessLedger;
}

/** How a hook run went. */
export interface ToolHookResult {
  /** The hook exited with 0 (for a pre-hook: the call may proceed). */
  ok: boolean;
  /** null when it was killed, timed out or could not start. */
  exitCode: number | null;
  /** stdout then stderr, trimmed, control characters escaped, cut to {@link MAX_HOOK_OUTPUT_CHARS}. */
  output: string;
  timedOut: boolean;
}

/** A value safe for an environment variable (no NUL, no control characters). */
function envValue(text: string): string {
  return escapeControl(text, { keepNewlines: false });
}

function hookEnvironment(run: ToolHookRun): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...(run.env ?? process.env),
    ORCHESTRA_HOOK_PHASE: run.phase,
    ORCHESTRA_TOOL_NAME: envValue(run.tool),
    ORCHESTRA_TOOL_CALL_ID: envValue(run.callId),
    ORCHESTRA_NODE_ID: envValue(run.nodeId),
  };
  if (run.status !== undefined) env.ORCHESTRA_TOOL_STATUS = run.status;
  else delete env.ORCHESTRA_TOOL_STATUS;
  return env;
}

function hookInput(run: ToolHookRun): string {
  const input: Record<string, unknown> = { phase: run.phase, tool: run.tool, call_id: run.callId, node: run.nodeId, arguments: run.args ?? null };
  if (run.result !== undefined) input.result = run.result;
  if (run.status !== undefined) input.status = run.status;
  try {
    return `${JSON.stringify(input)}\n`;
  } catch {
    return `${JSON.stringify({ ...input, arguments: null })}\n`;
  }
}

function outputOf(stdout: string, stderr: string): string {
  const text = [stdout.trim(), stderr.trim()].filter(Boolean).join('\n');
  return escapeControl(clipText(text, MAX_HOOK_OUTPUT_CHARS));
}

/**
 * Runs a tool hook (spec §9.7): the author's command with `/bin/sh -c` in
 * its own process group. The tool call's data reaches it only through the
 * environment (`ORCHESTRA_HOOK_PHASE`, `ORCHESTRA_TOOL_NAME`,
 * `ORCHESTRA_TOOL_CALL_ID`, `ORCHESTRA_NODE_ID`, and `ORCHESTRA_TOOL_STATUS`
 * after the call) and a JSON object on stdin (`{ phase, tool, call_id, node,
 * arguments, result?, status? }`), never through the command text. Exit 0 is
 * `ok`; a non-zero exit, a timeout or a command that cannot start is not.
 * Throws only when `signal` is aborted (its reason).
 */
export async function runToolHook(run: ToolHookRun): Promise<ToolHookResult> {
  let result;
  try {
    result = await runProcess({
      argv: ['/bin/sh', '-c', run.command],
      cwd: run.cwd,
      env: hookEnvironment(run),
      stdin: hookInput(run),
      timeoutMs: run.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
      maxOutputBytes: 64 * 1024,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.processes ? { ledger: run.processes } : {}),
    });
  } catch (error) {
    if (!(error instanceof ProcessStartError)) throw error;
    return { ok: false, exitCode: null, output: error.message, timedOut: false };
  }
  if (result.aborted) throw run.signal?.reason ?? new Error('tool hook stopped');
  return { ok: result.exitCode === 0 && !result.timedOut, exitCode: result.exitCode, output: outputOf(result.stdout, result.stderr), timedOut: result.timedOut };
}
