import type { BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { LlmReporter } from '@orchestra/core';
import { runAgentLoop, type AgentLoopResult } from '../backends/agent-loop.js';
import type { ChatRunnable } from '../backends/call-model.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';
import { READY_TOOL, discussTools, readyTool } from './discuss-tools.js';
import type { PhaseModel } from './phase-model.js';

/** What the model is told when a Discuss turn has used its `max_tool_rounds` tool round-trips: its next reply ends the turn. */
export function toolRoundsNote(rounds: number): string {
  return `(This turn has used its ${rounds} tool round${rounds === 1 ? '' : 's'} (max_tool_rounds): answer now with what you have. Only ${READY_TOOL} may still be called.)`;
}

/** What one Discuss turn needs besides its messages. */
export interface DiscussTurnOptions {
  nodeId: string;
  model: PhaseModel;
  /** The stage's tools; Discuss offers the read-only ones (see `discussTools`). */
  tools?: readonly StructuredToolInterface[] | undefined;
  /** Tool round-trips the turn may take (`max_tool_rounds`). */
  maxToolRounds: number;
  guard?: ToolCallGuard | undefined;
  stageDir: string;
  signal: AbortSignal;
  report: LlmReporter;
}

function bind(model: PhaseModel, tools: StructuredToolInterface[]): ChatRunnable {
  return (typeof model.model.bindTools === 'function' ? model.model.bindTools(tools) : model.model) as ChatRunnable;
}

/**
 * One turn of a Discuss phase: the model replies, running its research
 * tools and seeing their results, until it answers without a tool call or
 * calls `ready_to_summarize` (then `stopped` is true). After `maxToolRounds`
 * round-trips it is called once more with {@link toolRoundsNote} and only
 * `ready_to_summarize` bound, and that reply ends the turn (with
 * `maxToolRounds` 0 the one call has only `ready_to_summarize`, and no
 * note). `messages` is extended in place.
 */
export function runDiscussTurn(messages: BaseMessage[], options: DiscussTurnOptions): Promise<AgentLoopResult> {
  const tools = discussTools(options.tools);
  return runAgentLoop(messages, {
    nodeId: options.nodeId,
    model: bind(options.model, tools),
    modelName: options.model.name,
    price: options.model.price,
    tools: new Map(tools.map((t) => [t.name, t])),
    maxTurns: options.maxToolRounds + 1,
    lastCall: { model: bind(options.model, [readyTool]), tools: new Map([[READY_TOOL, readyTool]]), ...(options.maxToolRounds > 0 ? { note: toolRoundsNote(options.maxToolRounds) } : {}) },
    ...(options.guard ? { guard: options.guard } : {}),
    stageDir: options.stageDir,
    signal: options.signal,
    report: options.report,
    stopOn: READY_TOOL,
  });
}
