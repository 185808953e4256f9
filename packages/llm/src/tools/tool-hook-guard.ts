import type { ProcessLedger } from '@orchestra/core/handlers';
import type { ToolCallGuard } from './tool-call-guard.js';
import { ToolHookLog } from './tool-hook-log.js';
import { DEFAULT_HOOK_TIMEOUT_MS, runToolHook, type ToolHookResult, type ToolHooks } from './tool-hooks.js';

/** What {@link createToolHookGuard} needs. */
export interface ToolHookGuardOptions {
  hooks: ToolHooks;
  nodeId: string;
  /** Where hooks run (the directory orchestra was started from). */
  cwd: string;
  /** The stage directory (the hook log goes there). */
  stageDir: string;
  /** The environment hooks start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Longest one hook may run (default 30 s). */
  timeoutMs?: number;
  /** Where each hook's process group is recorded before it runs (the stage's, in a run). */
  processes?: ProcessLedger;
}

function failure(result: ToolHookResult, timeoutMs: number): string {
  const how = result.timedOut
    ? `timed out after ${timeoutMs / 1000}s`
    : result.exitCode === null
      ? 'could not run'
      : `exited with code ${result.exitCode}`;
  return `tool_hooks.pre ${how}${result.output ? `: ${result.output}` : ''}`;
}

/**
 * The spec §9.7 hooks of one stage as a guard for the agent loop: the
 * pre-hook runs before every tool call and a non-zero exit skips the call;
 * the post-hook runs after it with the result and status. Every run is
 * appended to `<stageDir>/tool-hooks.jsonl`.
 */
export function createToolHookGuard(options: ToolHookGuardOptions): ToolCallGuard {
  const log = new ToolHookLog(options.stageDir);
  const timeoutMs = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  const common = {
    nodeId: options.nodeId,
    cwd: options.cwd,
    timeoutMs,
    ...(options.env ? { env: options.env } : {}),
    ...(options.processes ? { processes: options.processes } : {}),
  };
  return {
    async before(call, signal) {
      if (options.hooks.pre === undefined) return { proceed: true };
      const result = await runToolHook({ ...common, command: options.hooks.pre, phase: 'pre', tool: call.name, callId: call.id, args: call.args, signal });
      log.record({ phase: 'pre', tool: call.name, callId: call.id, result });
      return result.ok ? { proceed: true } : { proceed: false, reason: failure(result, timeoutMs) };
    },
    async after(call, toolResult, status, signal) {
      if (options.hooks.post === undefined || status === 'skipped') return;
      const result = await runToolHook({
        ...common,
        command: options.hooks.post,
        phase: 'post',
        tool: call.name,
        callId: call.id,
        args: call.args,
        result: toolResult,
        status,
        signal,
      });
      log.record({ phase: 'post', tool: call.name, callId: call.id, result });
    },
  };
}
