import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { LlmReporter, TokenUsage } from '@orchestra/core';
import { OrchestraError } from '@orchestra/core';
import { addUsage } from '@orchestra/core/store';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';
import { callModel, type ChatRunnable } from '../backends/call-model.js';
import { stoppedAtTokenLimit } from '../backends/token-limit.js';
import type { ArtifactIssues } from './schema-issues.js';
import { validateArtifact, type ArtifactRules, type ArtifactVerdict } from './validate-artifact.js';
import { issueCount, toolErrorFeedback, validationFeedback, type ValidationFeedback } from './validation-feedback.js';
import type { ModelPrice } from '../config/prices.js';

/** Retries after a failed finalization call when the node does not set `validation_retries`. */
export const DEFAULT_VALIDATION_RETRIES = 3;

/** The finalization tool's name for a node: `submit_<node id>`. */
export function finalizationToolName(nodeId: string): string {
  return `submit_${nodeId}`;
}

/** Why Serialize ended without an artifact; never retried (the node fails with the message). */
export type SerializeErrorCode = Extract<
  LlmErrorCode,
  /** The model answered without calling the finalization tool. There is no text fallback. */
  | 'ORCH_SERIALIZE_NO_TOOL_CALL'
  /** Every attempt failed validation; the last feedback is attached. */
  | 'ORCH_ARTIFACT_INVALID'
  /** A fatal check failed: no retry was offered. */
  | 'ORCH_ARTIFACT_FATAL'
  /** A declared check could not run (a source names nothing in the context): a mistake in the pipeline. */
  | 'ORCH_ARTIFACT_CHECK'
>;

/** Serialize ended without an artifact. */
export class SerializeError extends OrchestraError<SerializeErrorCode> {
  readonly retryable = false;
  constructor(
    code: SerializeErrorCode,
    message: string,
    /** The findings behind an invalid or fatal artifact. */
    readonly issues?: ArtifactIssues,
  ) {
    super(code, message);
    this.name = 'SerializeError';
  }
}

/** One finalization call and what became of it: node progress, so a resumed node need not repeat it. */
export interface SerializeAttempt {
  /** From 1. */
  attempt: number;
  /** The arguments the model gave, as sent (unparsed text when they were not JSON). */
  args: unknown;
  /** `accepted`, or the feedback sent back for a retry (or the findings that stopped it). */
  outcome: 'accepted' | ValidationFeedback;
}

/** What Serialize needs. */
export interface SerializeOptions {
  nodeId: string;
  /** A chat model that can call tools (`bindTools`). */
  model: BaseChatModel;
  modelName: string;
  /** What the model's tokens cost, when known. */
  price?: ModelPrice | undefined;
  /** The conversation so far (the system prompt and the summary); extended in place with every call and feedback. */
  messages: BaseMessage[];
  rules: ArtifactRules;
  /** The run's context: what the declared checks read their sources from. */
  context: Readonly<Record<string, unknown>>;
  /** Default `submit_<node id>`. */
  toolName?: string;
  /** What the tool is for, as the model reads it. */
  toolDescription?: string;
  /** Calls after the first that a failed validation may cost (default 3). */
  validationRetries?: number;
  signal: AbortSignal;
  report: LlmReporter;
  /** Called after each call is judged, before the next one: where a node keeps its progress. */
  onAttempt?: (attempt: SerializeAttempt) => void | Promise<void>;
}

/** The artifact, and what it took. */
export interface SerializeResult {
  artifact: unknown;
  /** Calls made (1 when the first was accepted). */
  attempts: number;
  usage?: TokenUsage;
}

/** The first findings in one line, for an error message: `field: problem (requirement); …; and N more`. */
export function issueSummary(issues: ArtifactIssues, limit = 3): string {
  const lines = [
    ...issues.invalid.map((i) => `${i.field}: ${i.problem} (${i.requirement})`),
    ...issues.missing.map((m) => `${m.field}: missing (${m.requirement})`),
    ...issues.unknown.map((u) => `${u}: unknown field`),
  ];
  const shown = lines.slice(0, limit).join('; ');
  return lines.length > limit ? `${shown}; and ${lines.length - limit} more` : shown;
}

/** The error that ends Serialize on a fatal verdict: a check that could not run, or a fatal finding. */
export function fatalVerdictError(nodeId: string, verdict: Extract<ArtifactVerdict, { fatal: true }>): SerializeError {
  if (verdict.errors.length > 0) return new SerializeError('ORCH_ARTIFACT_CHECK', `${nodeId}: a check of the output cannot run: ${verdict.errors.join('; ')}`);
  const n = issueCount(verdict.issues);
  return new SerializeError('ORCH_ARTIFACT_FATAL', `${nodeId}: the output failed a fatal check (${n} issue${n === 1 ? '' : 's'}): ${issueSummary(verdict.issues)}`, verdict.issues);
}

/**
 * The Serialize phase: the model may only call the finalization tool, whose
 * parameters are the output schema (`tool_choice` names it). Its arguments
 * are checked ({@link validateArtifact}); on failure the model gets the
 * feedback document as the tool's result and calls again, at most
 * `validationRetries` more times. A reply without the tool call, a fatal
 * finding, or running out of retries ends it with a {@link SerializeError}.
 */
export async function serializeArtifact(options: SerializeOptions): Promise<SerializeResult> {
  const { nodeId, messages, rules, signal, report } = options;
  const toolName = options.toolName ?? finalizationToolName(nodeId);
  const retries = options.validationRetries ?? DEFAULT_VALIDATION_RETRIES;
  if (typeof options.model.bindTools !== 'function') throw new Error(`the model ${options.model.getName()} cannot call tools (it has no bindTools); a node with an output schema needs one that can`);
  const { $schema: _dialect, ...parameters } = rules.schema.json;
  const tool = {
    type: 'function' as const,
    function: { name: toolName, description: options.toolDescription ?? `Submit the final ${nodeId} artifact. Call it exactly once, with every field.`, parameters },
  };
  const model = options.model.bindTools([tool], { tool_choice: toolName }) as ChatRunnable;
  let usage: TokenUsage | undefined;
  for (let attempt = 1; ; attempt++) {
    const reply = await callModel(model, messages, { signal, report, modelName: options.modelName, price: options.price });
    usage = addUsage(usage, reply.usage);
    const calls = reply.message.tool_calls ?? [];
    const broken = (reply.message.invalid_tool_calls ?? []).filter((c) => c.name === toolName);
    messages.push(new AIMessage({ content: reply.message.content, tool_calls: calls, invalid_tool_calls: reply.message.invalid_tool_calls ?? [] }));
    const mine = calls.find((c) => c.name === toolName);
    if (!mine && broken.length === 0) {
      const said = reply.message.text.trim();
      throw new SerializeError(
        'ORCH_SERIALIZE_NO_TOOL_CALL',
        `${nodeId}: the model answered without calling ${toolName}${said ? ` (it wrote: ${JSON.stringify(said.length > 200 ? `${said.slice(0, 199)}…` : said)})` : ''}; an artifact is taken only from that tool call, never from text`,
      );
    }
    let feedback: ValidationFeedback;
    let args: unknown;
    if (mine && stoppedAtTokenLimit(reply.message)) {
      // LangChain closes cut-off JSON where it stopped: what looks whole is not.
      args = mine.args;
      feedback = toolErrorFeedback('the call reached the output token limit before its arguments were complete, so nothing was taken; call it again, more briefly', toolName);
    } else if (mine) {
      args = mine.args;
      const verdict = validateArtifact(mine.args, rules, options.context);
      if (verdict.ok) {
        answerCalls(messages, calls, broken, toolName, JSON.stringify({ result: 'accepted' }));
        await options.onAttempt?.({ attempt, args, outcome: 'accepted' });
        return { artifact: verdict.artifact, attempts: attempt, ...(usage ? { usage } : {}) };
      }
      feedback = validationFeedback(verdict.issues, toolName);
      if (verdict.fatal) {
        await options.onAttempt?.({ attempt, args, outcome: feedback });
        throw fatalVerdictError(nodeId, verdict);
      }
    } else {
      const bad = broken[0]!;
      args = bad.args;
      feedback = toolErrorFeedback(`the arguments are not a JSON object${bad.error ? `: ${bad.error}` : ''}`, toolName);
    }
    answerCalls(messages, calls, broken, toolName, JSON.stringify(feedback));
    await options.onAttempt?.({ attempt, args, outcome: feedback });
    if (attempt > retries) {
      throw new SerializeError(
        'ORCH_ARTIFACT_INVALID',
        `${nodeId}: the output was still invalid after ${attempt} calls of ${toolName} (validation_retries=${retries}): ${issueSummary(feedback.issues)}`,
        feedback.issues,
      );
    }
  }
}

/** Answers every tool call of a reply (the API wants a result for each): ours with `content`, any other with a refusal. */
function answerCalls(messages: BaseMessage[], calls: readonly { id?: string; name: string }[], broken: readonly { id?: string }[], toolName: string, content: string): void {
  let answered = false;
  for (const call of [...calls, ...broken]) {
    const id = call.id ?? `${toolName}_call`;
    const ours = 'name' in call ? call.name === toolName : true;
    if (ours && !answered) {
      messages.push(new ToolMessage({ content, tool_call_id: id, name: toolName }));
      answered = true;
    } else {
      messages.push(new ToolMessage({ content: JSON.stringify({ result: 'tool_error', action: `Only ${toolName} is available, once per reply.` }), tool_call_id: id, name: 'name' in call ? (call as { name: string }).name : toolName }));
    }
  }
}
