import { ToolMessage, type ToolCall } from '@langchain/core/messages';
import { delegateRun } from './run-delegation.js';
import { saveDeliverable } from './save-deliverable.js';
import type { SessionContext } from './session-context.js';
import { SESSION_TOOL_NAMES } from './session-tools.js';

/**
 * What the agent's turn does after a tool call: go on (`next`), stop
 * (`cancelled`: the person turned a proposed run down), or leave at once
 * (`detached`: the process is going away).
 */
export type ToolCallEnd = 'next' | 'cancelled' | 'detached';

/**
 * Runs one of the agent's tool calls (see `sessionTools`) and puts its
 * answer in the transcript: `update_context` rewrites CONTEXT.md,
 * `save_deliverable` copies an output into deliverables/, `launch_run`
 * delegates a run; any other name is answered as unknown.
 */
export async function answerToolCall(ctx: SessionContext, call: ToolCall, id: string): Promise<ToolCallEnd> {
  const answer = (content: string) => ctx.data.transcript.push(new ToolMessage({ tool_call_id: id, content }));
  switch (call.name) {
    case SESSION_TOOL_NAMES.updateContext:
      ctx.workspace.writeContext(typeof call.args.text === 'string' ? call.args.text : '');
      answer('CONTEXT.md updated.');
      return 'next';
    case SESSION_TOOL_NAMES.saveDeliverable:
      answer(await saveDeliverable(call.args, ctx.workspace.deliverablesDir, async (run) => (await ctx.runs.result(run)).run_dir));
      return 'next';
    case SESSION_TOOL_NAMES.launchRun: {
      const ended = await delegateRun(ctx, id, call.args);
      if (ctx.detached) return 'detached';
      return ended === 'cancelled' ? 'cancelled' : 'next';
    }
    default:
      answer(`there is no tool ${call.name}`);
      return 'next';
  }
}
