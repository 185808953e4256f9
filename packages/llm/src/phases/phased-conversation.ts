import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Conversation, ConversationMessage, ConversationStart, Outcome } from '@orchestra/core';
import type { ConversationFinish } from '@orchestra/core/handlers';
import { toLangChainMessages } from '../messages/conversation-messages.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';
import { READY_TOOL } from './discuss-tools.js';
import { runDiscussTurn } from './discuss-turn.js';
import { phaseNode, type PhaseSpec } from './phase-spec.js';
import { finishPhases, reporterFor } from './phased-stage.js';
import type { PhaseModel } from './phase-model.js';

/** The mode instructions of an interactive Discuss, first in the conversation (the sandwich's top slice). */
export const INTERACTIVE_MODE_INSTRUCTIONS =
  'Mode: interactive. You are working out the task below together with a human: ask what you need to know, propose, and refine with them. ' +
  `When the two of you have settled everything the result needs, call ${READY_TOOL} (the human may also end the discussion with /done); a later step turns the discussion into the structured result.`;

/** The reminder at the end of the task (the sandwich's bottom slice). */
export const INTERACTIVE_MODE_REMINDER = `(Interactive mode: talk it through with the human; call ${READY_TOOL} once the result is settled.)`;

/** What a phased conversation needs besides its start. */
export interface PhasedConversationOptions {
  spec: PhaseSpec;
  model: (node: ConversationStart['node']) => PhaseModel;
  /** The session's opening messages (system prompt and context preamble). */
  start: readonly BaseMessage[];
  /** The stage's tools (an agent stage's), and their hooks: Discuss offers the read-only ones. */
  tools?: readonly StructuredToolInterface[];
  guard?: ToolCallGuard;
}

/**
 * The interactive Discuss of a phased node: a conversation with the human
 * (through the interactive handler) in which the model may use the
 * read-only tools and `ready_to_summarize`; each reply is one Discuss turn
 * (its tool round-trips bounded by `max_tool_rounds`). It ends on `/done`,
 * `/approve`, `ready_to_summarize` or after `max_discuss_turns` replies, and `finish`
 * then runs Summarize and Serialize on the real message list. A resumed
 * conversation is restored as text (tool calls of earlier turns are not
 * kept in the node's progress).
 */
export class PhasedConversation implements Conversation {
  ready = false;
  readonly maxTurns: number;
  private messages: BaseMessage[];
  private calls = 0;

  constructor(
    private readonly request: ConversationStart,
    private readonly options: PhasedConversationOptions,
  ) {
    this.maxTurns = options.spec.discussTurns;
    this.messages = [new SystemMessage(INTERACTIVE_MODE_INSTRUCTIONS), ...options.start];
  }

  async send(message: string, { signal }: { signal: AbortSignal }): Promise<string> {
    const first = !this.messages.some((m) => m instanceof HumanMessage);
    const messages = [...this.messages, new HumanMessage(first ? `${message}\n\n${INTERACTIVE_MODE_REMINDER}` : message)];
    const model = this.options.model(phaseNode(this.request.node, 'discuss'));
    try {
      const result = await runDiscussTurn(messages, {
        nodeId: this.request.node.id,
        model,
        tools: this.options.tools,
        maxToolRounds: this.options.spec.maxToolRounds,
        guard: this.options.guard,
        stageDir: this.request.stageDir,
        signal,
        report: reporterFor(this.request, 'discuss'),
      });
      this.calls += result.calls;
      this.ready = result.stopped === true;
      this.messages = messages; // only a complete exchange joins the history
      return result.text;
    } catch (error) {
      if (signal.aborted || !model.wrapError) throw error;
      throw model.wrapError(error);
    }
  }

  restore(saved: readonly ConversationMessage[]): void {
    this.messages = [new SystemMessage(INTERACTIVE_MODE_INSTRUCTIONS), ...this.options.start, ...toLangChainMessages(saved)];
  }

  finish(options: ConversationFinish): Promise<Outcome> {
    return finishPhases(
      { ...this.request, signal: options.signal },
      {
        mode: 'interactive',
        spec: this.options.spec,
        model: this.options.model,
        discussion: this.messages,
        progress: options.progress,
        saveProgress: options.saveProgress,
        discussCalls: this.calls,
      },
    );
  }
}
