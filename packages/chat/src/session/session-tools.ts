import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import type { Runnable } from '@langchain/core/runnables';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';
import { LaunchRunInputSchema } from '../runs/launch-run-input.js';

/** The session agent's tools by name. */
export const SESSION_TOOL_NAMES = { launchRun: 'launch_run', updateContext: 'update_context', saveDeliverable: 'save_deliverable' } as const;

/** `update_context`'s parameters: the whole new text of CONTEXT.md. */
export const UpdateContextInputSchema = z.strictObject({ text: z.string() });

/** `save_deliverable`'s parameters: a name inside deliverables/, and either the content or a run's file. */
export const SaveDeliverableInputSchema = z
  .strictObject({
    name: z.string().min(1),
    content: z.string().optional(),
    from_run: z.strictObject({ id: z.string().min(1), file: z.string().min(1) }).optional(),
  })
  .superRefine((input, ctx) => {
    if (input.content !== undefined && input.from_run !== undefined) ctx.addIssue({ code: 'custom', message: 'give either content or from_run, not both' });
    else if (input.content === undefined && input.from_run === undefined) ctx.addIssue({ code: 'custom', message: 'give content or from_run' });
  });
/** The checked parameters of `save_deliverable`. */
export type SaveDeliverableInput = z.infer<typeof SaveDeliverableInputSchema>;

/**
 * The tools the session agent is offered, in this order. They are
 * declarations only (name, description, parameters): the session runs the
 * calls itself.
 */
export function sessionTools(): StructuredToolInterface[] {
  const declared = async () => '';
  return [
    tool(declared, {
      name: SESSION_TOOL_NAMES.launchRun,
      description: 'Launch a pipeline run for a task (see the orchestrator section). Returns the run result when it ends.',
      schema: LaunchRunInputSchema,
    }),
    tool(declared, {
      name: SESSION_TOOL_NAMES.updateContext,
      description: "Replace the project's CONTEXT.md (shown to you in every turn) with new text: decisions, constraints, what the person prefers. Give the whole new text.",
      schema: UpdateContextInputSchema,
    }),
    tool(declared, {
      name: SESSION_TOOL_NAMES.saveDeliverable,
      description:
        'Save an output the person should keep into the project\'s deliverables/ directory (the source of truth for outputs): give `name` (a file name or path inside deliverables/) and either `content` (the text) or `from_run` ({ id, file }: a file of a run, relative to its run directory, such as "revise/response.md").',
      schema: SaveDeliverableInputSchema,
    }),
  ];
}

/** The session agent's model with its tools bound. */
export type SessionModel = Runnable<BaseMessage[], AIMessageChunk>;

/** Binds {@link sessionTools} to `model`; throws when the model cannot call tools. */
export function bindSessionTools(model: BaseChatModel): SessionModel {
  if (!model.bindTools) throw new Error('the session model cannot call tools');
  return model.bindTools(sessionTools()) as SessionModel;
}
