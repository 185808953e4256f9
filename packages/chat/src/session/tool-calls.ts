import { ToolMessage, type ToolCall } from '@langchain/core/messages';
import type { z } from 'zod';
import { describeIssues, type IssueLike } from '../mcp/describe-issues.js';
import { delegateRun } from './run-delegation.js';
import { saveDeliverable } from './save-deliverable.js';
import type { SessionContext } from './session-context.js';
import { SESSION_TOOL_NAMES, SaveDeliverableInputSchema, UpdateContextInputSchema } from './session-tools.js';

/** A tool call's arguments checked by the tool's schema: the values, or the refusal the agent gets (nothing was done). */
function checked<T>(tool: string, schema: z.ZodType<T>, args: unknown): { ok: true; value: T } | { ok: false; refusal: string } {
  const parsed = schema.safeParse(args);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, refusal: `${tool} refused: ${describeIssues(parsed.error.issues as IssueLike[], args, 'the call')}. Nothing was changed.` };
}

/**
 * What the agent's turn does after a tool call: go on (`next`), stop
 * (`cancelled`: the person turned a proposed run down), or leave at once
 * (`detached`: the process is going away).
 */
export type ToolCallEnd = 'next' | 'cancelled' | 'detached';

/**
 * Runs one of the agent's tool calls (see `sessionTools`) and puts its
 * answer in the transcript. Each call's arguments are checked by its tool's
 * schema first (`launch_run`'s by the launcher): a refused call changes
 * nothing, and its answer says what was wrong. `update_context` rewrites CONTEXT.md,
 * `save_deliverable` copies an output into deliverables/, `launch_run`
 * delegates a run; any other name is answered as unknown.
 */
export async function answerToolCall(ctx: SessionContext, call: ToolCall, id: string): Promise<ToolCallEnd> {
  const answer = (content: string) => ctx.data.transcript.push(new ToolMessage({ tool_call_id: id, content }));
  switch (call.name) {
    case SESSION_TOOL_NAMES.updateContext: {
      const args = checked(call.name, UpdateContextInputSchema, call.args);
      if (!args.ok) answer(args.refusal);
      else {
        ctx.workspace.writeContext(args.value.text);
        answer('CONTEXT.md updated.');
      }
      return 'next';
    }
    case SESSION_TOOL_NAMES.saveDeliverable: {
      const args = checked(call.name, SaveDeliverableInputSchema, call.args);
      answer(args.ok ? await saveDeliverable(args.value, ctx.workspace.deliverablesDir, async (run) => (await ctx.runs.result(run)).run_dir) : args.refusal);
      return 'next';
    }
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
