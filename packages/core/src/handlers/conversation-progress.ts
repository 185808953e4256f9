import { z } from 'zod';
import type { ConversationMessage } from './conversational-backend.js';

/** One exchange of an interactive node: what the agent said and what the human answered. */
export const ConversationTurnSchema = z.object({ agent: z.string(), human: z.string() });
/** One exchange of an interactive node (`ConversationTurnSchema`). */
export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;

/**
 * What an interactive node saves after every agent message and every human
 * reply (`HandlerInput.saveProgress`, so `checkpoint.json` → `node_progress`):
 * enough to continue the conversation in another process without asking the
 * model again for turns that already happened.
 */
export const ConversationProgressSchema = z.object({
  format: z.literal('orchestra.conversation/1'),
  /** The composed prompt the conversation began with. */
  prompt: z.string(),
  /** Completed turns: agent message and the human's reply. */
  turns: z.array(ConversationTurnSchema),
  /** The agent message the human has not answered yet; null while the agent's reply to the last turn is outstanding. */
  pending: z.string().nullable(),
  /**
   * Set once the conversation ended with a command (`/done`, `/approve`) and
   * the backend's `finish` was still to run: a resumed node goes straight to it.
   */
  ended: z.string().optional(),
  /** What the backend's `finish` saved so far (a phased node: its summary and judged calls). */
  finish: z.unknown().optional(),
});
/** An interactive node's saved conversation (`ConversationProgressSchema`), its `node_progress`. */
export type ConversationProgress = z.infer<typeof ConversationProgressSchema>;

/** The conversation as messages: the prompt, then agent and human in turn, then the pending agent message. */
export function progressMessages(progress: ConversationProgress): ConversationMessage[] {
  const messages: ConversationMessage[] = [{ role: 'human', text: progress.prompt }];
  for (const turn of progress.turns) messages.push({ role: 'agent', text: turn.agent }, { role: 'human', text: turn.human });
  if (progress.pending !== null) messages.push({ role: 'agent', text: progress.pending });
  return messages;
}

/** The transcript in Markdown: `<node>/conversation.md` and the outcome's notes. */
export function conversationMarkdown(nodeId: string, prompt: string, turns: readonly ConversationTurn[], pending: string | null, ending?: string): string {
  const parts = [`# Conversation: ${nodeId}`, `## Prompt\n\n${prompt}`];
  turns.forEach((turn, i) => parts.push(`## Agent (turn ${i + 1})\n\n${turn.agent}`, `## Human (turn ${i + 1})\n\n${turn.human}`));
  if (pending !== null) parts.push(`## Agent (turn ${turns.length + 1})\n\n${pending}`);
  if (ending !== undefined) parts.push(`## Human (turn ${turns.length + 1})\n\n${ending}`);
  return `${parts.join('\n\n')}\n`;
}
