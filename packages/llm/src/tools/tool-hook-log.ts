import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ToolHookPhase, ToolHookResult } from './tool-hooks.js';

/** The stage log of tool hooks, in the stage directory: one JSON line per hook run. */
export const TOOL_HOOKS_FILE = 'tool-hooks.jsonl';

/** One hook run, as {@link ToolHookLog.record} takes it. */
export interface ToolHookRecord {
  phase: ToolHookPhase;
  tool: string;
  callId: string;
  result: ToolHookResult;
}

/**
 * Appends every hook run of a stage to `<stageDir>/tool-hooks.jsonl`:
 * `{ at, phase, tool, call_id, exit_code, ok, timed_out, output }`, one line
 * each (spec §9.7's "recorded in the stage log"). Writing is best effort: a
 * full disk does not fail the tool call.
 */
export class ToolHookLog {
  /** The log file's path. */
  readonly file: string;

  constructor(stageDir: string) {
    this.file = join(stageDir, TOOL_HOOKS_FILE);
  }

  /** Appends one line. */
  record(entry: ToolHookRecord): void {
    const line = {
      at: new Date().toISOString(),
      phase: entry.phase,
      tool: entry.tool,
      call_id: entry.callId,
      exit_code: entry.result.exitCode,
      ok: entry.result.ok,
      timed_out: entry.result.timedOut,
      output: entry.result.output,
    };
    try {
      appendFileSync(this.file, `${JSON.stringify(line)}\n`);
    } catch {
      // the log is an aid; a full disk must not fail the call
    }
  }
}
