import type { Cassette } from '@orchestra/core';
import { CassetteError } from '@orchestra/core';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';

/**
 * A stage's tool hooks over a cassette. Recording: `tool_hooks.pre` runs
 * and its verdict on each call (go on, or skip with a reason) is recorded;
 * `post` runs. Replaying: no hook command runs; each call gets the recorded
 * verdict, so a call the hook refused is refused again.
 */
export function cassetteGuard(cassette: Cassette, stage: string, guard: ToolCallGuard): ToolCallGuard {
  return {
    async before(call, signal) {
      const request = { tool: call.name, args: JSON.parse(JSON.stringify(call.args ?? {})) as unknown };
      if (cassette.mode === 'replay') {
        const recorded = cassette.take('hook', stage, request) as { proceed?: unknown; reason?: unknown } | null;
        if (recorded?.proceed === true) return { proceed: true };
        if (recorded?.proceed === false && typeof recorded.reason === 'string') return { proceed: false, reason: recorded.reason };
        throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${cassette.file}: the recorded tool hook verdict of stage ${stage} is not a verdict`);
      }
      const verdict = await guard.before(call, signal);
      cassette.record('hook', stage, request, verdict);
      return verdict;
    },
    async after(call, result, status, signal) {
      if (cassette.mode === 'replay') return;
      await guard.after(call, result, status, signal);
    },
  };
}
