import { AIMessage, HumanMessage, SystemMessage, ToolMessage, mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { CodergenRequest, JsonValue, LlmReporter, Outcome, TokenUsage } from '@orchestra/core';
import type { PhaseCost } from '@orchestra/core/store';
import { addUsage } from '@orchestra/core/store';
import { callModel } from '../backends/call-model.js';
import type { ToolCallGuard } from '../tools/tool-call-guard.js';
import { READY_TOOL } from './discuss-tools.js';
import { runDiscussTurn } from './discuss-turn.js';
import { phaseNode, type PhaseName, type PhaseSpec } from './phase-spec.js';
import { serializeArtifact, type SerializeAttempt } from './serialize.js';
import { serializeSections, type SectionsProgress } from './serialize-sections.js';
import type { PhaseModel } from './phase-model.js';

/** Files a phased node leaves in its stage. */
export const PHASE_FILES = { summary: 'summary.md', output: 'output.json', phases: 'phases.json' } as const;

/** The mode instructions, first in the Discuss conversation (the sandwich's top slice). */
export const DIRECT_MODE_INSTRUCTIONS =
  'Mode: direct. No human takes part in this stage. Work out what the task asks for on your own, using the tools you have if they help. ' +
  `When you have everything the result needs, call ${READY_TOOL}; a later step turns your work into the structured result.`;

/** The reminder at the end of the task (the sandwich's bottom slice). */
export const DIRECT_MODE_REMINDER = `(Direct mode: nobody will answer questions. Decide, then call ${READY_TOOL}.)`;

/** What starts a further turn of a direct Discuss (`max_discuss_turns` above 1) after a reply without a tool call. */
export const DIRECT_MODE_CONTINUE = `(Direct mode: nobody will answer. Go on with the task if anything is left to settle; call ${READY_TOOL} once you have everything the result needs.)`;

/** What Summarize is asked. */
export const SUMMARIZE_INSTRUCTION =
  'Summarize the work above as a compact brief for the next step, which turns it into the structured result. ' +
  'Keep every decision, name, number and identifier exactly as written; leave out how you got there. Answer with the summary only.';

/** Serialize's system prompt. */
export const SERIALIZE_SYSTEM = 'You turn a brief into a structured result by calling the one tool you have, with every field filled from the brief. Do not invent identifiers the brief does not contain.';


/** What a phased stage needs besides the request. */
export interface PhasedStageOptions {
  spec: PhaseSpec;
  /** The model of a phase (the node's, or `<phase>.llm_model`'s). */
  model: (node: CodergenRequest['node']) => PhaseModel;
  /** The session's opening messages (system prompt and context preamble). */
  start: readonly BaseMessage[];
  /** The stage's tools (an agent stage's), and their hooks: Discuss offers the read-only ones. */
  tools?: readonly StructuredToolInterface[];
  guard?: ToolCallGuard;
}

/** How far a phased node got: its progress in the checkpoint, so a resumed node repeats no finished phase. */
interface PhaseProgress {
  discuss?: StoredMessage[];
  summary?: string;
  attempts?: { args: JsonValue; feedback: JsonValue }[];
  /** Serialize in sections (`output.sections`): its own progress. */
  sections?: SectionsProgress;
  cost: Partial<Record<PhaseName, PhaseCost>>;
}

function add(cost: Partial<Record<PhaseName, PhaseCost>>, phase: PhaseName, calls: number, usage: TokenUsage | undefined): void {
  const before = cost[phase] ?? { calls: 0 };
  const total = addUsage(before.usage, usage);
  cost[phase] = { calls: before.calls + calls, ...(total ? { usage: total } : {}) };
}

function progressOf(saved: JsonValue | undefined): PhaseProgress {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return { cost: {} };
  const p = saved as unknown as PhaseProgress;
  return { ...p, cost: p.cost ?? {} };
}

async function wrapped<T>(model: PhaseModel, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (signal.aborted || !model.wrapError) throw error;
    throw model.wrapError(error);
  }
}

/** What the phases read of a stage request (a single-shot request or a conversation's start). */
export type PhaseRequest = Pick<CodergenRequest, 'node' | 'prompt' | 'context' | 'signal' | 'stage' | 'report'>;

/** Reports a phase's calls and streamed text as that phase's (each `llm.delta` and `llm.response` event names it). */
export function reporterFor(request: Pick<PhaseRequest, 'report'>, phase: PhaseName): LlmReporter {
  return { ...request.report, delta: (text) => request.report.delta(text, phase), response: (call) => request.report.response({ ...call, phase }) };
}

/**
 * Runs a phased LLM stage in direct mode: Discuss (the task, the read-only
 * tools and `ready_to_summarize`; at most `max_discuss_turns` turns, each
 * ending on a reply without a tool call, the next one started by
 * {@link DIRECT_MODE_CONTINUE}), then {@link finishPhases}. Each finished
 * phase is node progress, so a resumed node goes on where it stopped.
 */
export async function runPhasedStage(request: CodergenRequest, options: PhasedStageOptions): Promise<Outcome> {
  const { node, signal } = request;
  const { spec } = options;
  const progress = progressOf(request.progress);
  const save = async () => request.saveProgress?.(progress as unknown as JsonValue);
  let discussion: BaseMessage[] = [];
  if (progress.summary === undefined) {
    if (progress.discuss) discussion = mapStoredMessagesToChatMessages(progress.discuss);
    else {
      const model = options.model(phaseNode(node, 'discuss'));
      discussion = [new SystemMessage(DIRECT_MODE_INSTRUCTIONS), ...options.start, new HumanMessage(`${request.prompt}\n\n${DIRECT_MODE_REMINDER}`)];
      for (let turn = 1; ; turn++) {
        const result = await wrapped(model, signal, () =>
          runDiscussTurn(discussion, {
            nodeId: node.id,
            model,
            tools: options.tools,
            maxToolRounds: spec.maxToolRounds,
            guard: options.guard,
            stageDir: request.stageDir,
            signal,
            report: reporterFor(request, 'discuss'),
          }),
        );
        add(progress.cost, 'discuss', result.calls, result.usage);
        if (result.stopped || turn >= spec.discussTurns) break;
        discussion.push(new HumanMessage(DIRECT_MODE_CONTINUE));
      }
      progress.discuss = mapChatMessagesToStoredMessages(discussion);
      await save();
    }
  }
  return finishPhases(request, { mode: 'direct', spec, model: options.model, discussion, progress: progress as unknown as JsonValue, saveProgress: async (data) => request.saveProgress?.(data) });
}

/** What {@link finishPhases} needs besides the request. */
export interface FinishPhasesOptions {
  spec: PhaseSpec;
  model: (node: CodergenRequest['node']) => PhaseModel;
  /** The Discuss conversation (unused once the progress holds a summary). */
  discussion: readonly BaseMessage[];
  /** What an earlier run of these phases saved (the node's progress, or a conversation's finish progress). */
  progress: JsonValue | undefined;
  saveProgress: (data: JsonValue | undefined) => Promise<void>;
  /** Discuss calls a conversation made (counted into the phases' accounting). */
  discussCalls?: number;
  /** How Discuss ran, for `phases.json`. */
  mode: 'direct' | 'interactive';
}

/**
 * Summarize (the real message list, no tools; written to `summary.md`), then
 * Serialize (the finalization tool only, validated, retried with feedback;
 * judged calls replayed after a resume). Succeeds with the artifact in the
 * context under the spec's key and in `output.json`, and the calls and
 * tokens per phase in `phases` (and `phases.json`).
 */
export async function finishPhases(request: PhaseRequest, options: FinishPhasesOptions): Promise<Outcome> {
  const { node, signal, stage } = request;
  const { spec } = options;
  const progress = progressOf(options.progress);
  if (options.discussCalls !== undefined && progress.cost.discuss === undefined) progress.cost.discuss = { calls: options.discussCalls };
  const save = async () => options.saveProgress(progress as unknown as JsonValue);

  if (progress.summary === undefined) {
    // Summarize: the whole exchange, tool calls and results included; no tools offered.
    const model = options.model(phaseNode(node, 'summarize'));
    const reply = await wrapped(model, signal, () => callModel(model.model, [...closeOpenCalls(options.discussion), new HumanMessage(SUMMARIZE_INSTRUCTION)], { signal, report: reporterFor(request, 'summarize'), modelName: model.name, price: model.price }));
    add(progress.cost, 'summarize', 1, reply.usage);
    progress.summary = reply.message.text.trim();
    delete progress.discuss; // the summary is all Serialize needs
    await save();
    await stage.write(PHASE_FILES.summary, `${progress.summary}\n`);
  }

  // Serialize, replaying the attempts a resumed node already made.
  const model = options.model(phaseNode(node, 'serialize'));
  const task = `The task:\n${request.prompt}\n\nThe brief:\n${progress.summary}`;
  const messages: BaseMessage[] = [new SystemMessage(SERIALIZE_SYSTEM), new HumanMessage(`${task}\n\nCall ${spec.toolName} with the result.`)];
  const done = progress.attempts ?? [];
  done.forEach((a, i) => {
    const id = `${spec.toolName}_${i + 1}`;
    messages.push(new AIMessage({ content: '', tool_calls: [{ id, name: spec.toolName, args: (a.args ?? {}) as Record<string, unknown> }] }), new ToolMessage({ content: JSON.stringify(a.feedback), tool_call_id: id, name: spec.toolName }));
  });
  const remaining = spec.validationRetries - done.length;
  if (remaining < 0) throw Object.assign(new Error(`${node.id}: the output was still invalid after ${done.length} calls of ${spec.toolName} (validation_retries=${spec.validationRetries})`), { retryable: false });
  // output.sections: section by section, and only the sections at fault again (serialize-sections.ts).
  const inSections = (sections: readonly string[]) =>
    serializeSections({
      nodeId: node.id,
      model: model.model,
      modelName: model.name,
      price: model.price,
      system: SERIALIZE_SYSTEM,
      task,
      sections,
      rules: spec.rules,
      context: request.context.snapshot(),
      toolName: spec.toolName,
      validationRetries: spec.validationRetries,
      signal,
      report: reporterFor(request, 'serialize'),
      ...(progress.sections ? { progress: progress.sections } : {}),
      onAttempt: () => add(progress.cost, 'serialize', 1, undefined),
      onProgress: async (saved) => {
        progress.sections = saved;
        await save();
      },
    });
  const result = await wrapped(model, signal, () =>
    spec.sections ? inSections(spec.sections) : serializeArtifact({
      nodeId: node.id,
      model: model.model,
      modelName: model.name,
      price: model.price,
      messages,
      rules: spec.rules,
      context: request.context.snapshot(),
      toolName: spec.toolName,
      validationRetries: remaining,
      signal,
      report: reporterFor(request, 'serialize'),
      onAttempt: async (attempt: SerializeAttempt) => {
        add(progress.cost, 'serialize', 1, undefined);
        if (attempt.outcome === 'accepted') return;
        done.push({ args: attempt.args as JsonValue, feedback: attempt.outcome as unknown as JsonValue });
        progress.attempts = done;
        await save();
      },
    }),
  );
  if (result.usage) add(progress.cost, 'serialize', 0, result.usage);
  const artifact = result.artifact as JsonValue;
  const calls = spec.sections ? result.attempts : done.length + 1;
  await stage.write(PHASE_FILES.output, `${JSON.stringify(artifact, null, 2)}\n`);
  await stage.write(PHASE_FILES.phases, `${JSON.stringify({ mode: options.mode, attempts: calls, cost: progress.cost }, null, 2)}\n`);
  const costs = (['discuss', 'summarize', 'serialize'] as const).map((p) => `${p} ${progress.cost[p]?.calls ?? 0}`).join(', ');
  return {
    status: 'success',
    phases: progress.cost,
    notes: `${node.id}: artifact accepted on call ${calls} of ${spec.sections ? `the section tools of ${spec.toolName}` : spec.toolName} (model calls: ${costs})`,
    contextUpdates: { [spec.key]: artifact, last_stage: node.id, last_response: (progress.summary ?? '').slice(0, 200) },
  };
}

/**
 * The discussion as Summarize may send it: an assistant message's tool
 * calls each need a result before the next message, so calls left without
 * one get a short one (a Discuss turn now always answers its calls; a
 * discussion saved by an earlier version may end on calls it never ran).
 */
function closeOpenCalls(messages: readonly BaseMessage[]): BaseMessage[] {
  const out = [...messages];
  const last = out.at(-1);
  if (last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0) {
    for (const call of last.tool_calls ?? []) out.push(new ToolMessage({ content: 'Not run: the discussion ended.', tool_call_id: call.id ?? call.name, name: call.name }));
  }
  return out;
}
