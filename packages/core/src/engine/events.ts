import type { PhaseCost, StageStatus } from './outcome.js';
import type { TokenUsage } from './usage.js';

interface Base {
  /** ISO-8601 time the event was emitted. */
  at: string;
}

/**
 * Every event a run emits (spec §9.6), discriminated by a namespaced `type`
 * (docs/events.md lists them). `RunOptions.onEvent` hears each one as it
 * happens; an {@link EventBus} passed as `RunOptions.events` gives them as an
 * async iterator too.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadPipeline, runPipeline, simulationBackend, type RunEvent } from '@orchestra/core';
 *
 * const { graph } = loadPipeline(`digraph Notes {
 *   start [shape=Mdiamond]
 *   exit  [shape=Msquare]
 *   draft [prompt="Draft the notes"]
 *   start -> draft -> exit
 * }`);
 * if (!graph) throw new Error('invalid pipeline');
 * const seen = new Map<RunEvent['type'], number>();
 * await runPipeline(graph, {
 *   backend: simulationBackend,
 *   logsRoot: join(mkdtempSync(join(tmpdir(), 'notes-')), 'run'),
 *   onEvent: (event) => {
 *     seen.set(event.type, (seen.get(event.type) ?? 0) + 1);
 *     // The union narrows on `type`: each type has its own fields.
 *     if (event.type === 'stage.completed') console.log(`${event.nodeId}: ${event.status}`);
 *     if (event.type === 'edge.selected') console.log(`  -> ${event.to} (${event.reason})`);
 *   },
 * });
 * console.log([...seen.keys()].filter((type) => type.startsWith('pipeline.')).join(' '));
 * // Prints:
 * // start: success
 * //   -> draft (weight)
 * // draft: success
 * //   -> exit (weight)
 * // exit: success
 * // pipeline.started pipeline.completed
 * ```
 */
export type RunEvent =
  | (Base & { type: 'pipeline.started'; pipeline: string; logsRoot: string; resumed: boolean; startNode: string })
  /** `usage`: tokens of the whole run (every process that ran it), when any LLM stage reported some. */
  | (Base & { type: 'pipeline.completed'; status: StageStatus; durationMs: number; nodesRun: number; retries: number; usage?: TokenUsage })
  | (Base & { type: 'pipeline.failed'; failureReason: string; durationMs: number; nodesRun: number; retries: number; usage?: TokenUsage })
  | (Base & { type: 'pipeline.interrupted'; reason: string; durationMs: number; lastNode: string | null })
  /** `reason`: why nobody answered now (`end-of-input`: the console's input ended; absent: the interviewer parks by design). */
  | (Base & { type: 'pipeline.parked'; nodeId: string; questionText: string; durationMs: number; reason?: string })
  /** A resumed run stopped process groups that the run's previous owner, now dead, left running (tool commands). */
  | (Base & { type: 'run.orphans_stopped'; processes: { pgid: number; node: string; command: string }[] })
  /** Recorded process groups that still run but could not be shown to be the run's own: reported, never signalled. */
  | (Base & { type: 'run.orphans_unverified'; processes: { pgid: number; node: string; command: string; reason: string }[] })
  | (Base & { type: 'pipeline.restarted'; from: string; to: string; logsRoot: string })
  | (Base & { type: 'stage.started'; nodeId: string; label: string; handlerType: string; index: number; attempt: number })
  /** `usage`: tokens the node's LLM calls used, all attempts. */
  | (Base & { type: 'stage.completed'; nodeId: string; index: number; status: StageStatus; durationMs: number; notes?: string; usage?: TokenUsage; phases?: Record<string, PhaseCost> })
  | (Base & { type: 'stage.failed'; nodeId: string; index: number; failureReason: string; willRetry: boolean; durationMs: number; usage?: TokenUsage })
  | (Base & { type: 'stage.retrying'; nodeId: string; index: number; attempt: number; delayMs: number })
  | (Base & { type: 'edge.selected'; from: string; to: string; label: string; reason: EdgeChoiceReason })
  | (Base & { type: 'parallel.started'; nodeId: string; branchCount: number; joinPolicy: string; maxParallel: number })
  | (Base & { type: 'parallel.branch_started'; nodeId: string; branch: string; index: number })
  | (Base & { type: 'parallel.branch_completed'; nodeId: string; branch: string; index: number; status: StageStatus; durationMs: number })
  | (Base & { type: 'parallel.completed'; nodeId: string; durationMs: number; successCount: number; failureCount: number })
  | (Base & { type: 'interview.started'; nodeId: string; questionText: string; questionType: string })
  | (Base & { type: 'interview.completed'; nodeId: string; questionText: string; answerValue: string; durationMs: number })
  | (Base & { type: 'interview.timeout'; nodeId: string; questionText: string; durationMs: number })
  | (Base & {
      type: 'human.interaction';
      nodeId: string;
      questionText: string;
      questionType: string;
      answerValue: string;
      answerText: string;
      selectedKey: string;
      selectedLabel: string;
      /** For a reply in an interactive node's conversation: the turn it answers. */
      turn?: number;
    })
  /** The agent of an interactive node replied (`turn` counts agent messages from 1); `replayed` for a reply re-obtained while resuming. */
  | (Base & { type: 'conversation.reply'; nodeId: string; turn: number; replayed: boolean })
  /** An interactive node picked up a conversation it had saved (a resumed run, or a retry of the node): `restored` without calling the model, `replayed` by sending the human messages again. */
  | (Base & { type: 'conversation.resumed'; nodeId: string; turns: number; mode: 'restored' | 'replayed' })
  /** An interactive node's conversation ended with a command. */
  | (Base & { type: 'conversation.ended'; nodeId: string; turns: number; command: string })
  /**
   * A piece of an LLM reply as it streams in (`turn`: the conversation turn of
   * an interactive node; `phase`: the phase of a phased node, as on
   * `llm.response`). Delivered to listeners only: never written to
   * `events.jsonl` or printed by `--json`.
   */
  | (Base & { type: 'llm.delta'; nodeId: string; text: string; turn?: number; phase?: string })
  /** An LLM call finished: the model that answered (`provider`: the API it went through, when known), how long it took, the tokens it used. */
  | (Base & { type: 'llm.response'; nodeId: string; model: string; provider?: string; durationMs: number; usage?: TokenUsage; turn?: number; phase?: string })
  /**
   * An agent stage's tool call ended: `ok`, `error` (the tool failed; the model
   * was told), `refused` (outside the workspace, or not allowed) or `skipped`
   * (a `tool_hooks.pre` hook said no). `detail`: a one-line summary (a path, a command).
   */
  | (Base & { type: 'agent.tool_call'; nodeId: string; tool: string; callId: string; status: ToolCallStatus; durationMs: number; detail?: string })
  /** A conference role began its part in phase 2 (a `type="conference"` node). */
  | (Base & { type: 'conference.role.started'; nodeId: string; role: string; tier: string })
  /** A conference role's answer was sent back for its evidence (`final`: it is not asked again and ends `ungrounded`). */
  | (Base & { type: 'conference.role.rejected'; nodeId: string; role: string; reason: string; final: boolean })
  /** A conference role ended: `answered`, `abstained` or `ungrounded`. */
  | (Base & { type: 'conference.role.completed'; nodeId: string; role: string; status: 'answered' | 'abstained' | 'ungrounded'; durationMs: number; usage?: TokenUsage })
  | (Base & { type: 'goal_gate.unsatisfied'; nodeId: string; retryTarget: string | null })
  /** The node's result is durable (journal); `file` tells whether checkpoint.json was rewritten too. */
  | (Base & { type: 'checkpoint.saved'; nodeId: string; completedNodes: number; file: boolean });

/** How an agent's tool call ended. */
export type ToolCallStatus = 'ok' | 'error' | 'refused' | 'skipped';

/** Events delivered to listeners but never recorded in `events.jsonl` (one per streamed token). */
export const TRANSIENT_EVENT_TYPES: ReadonlySet<string> = new Set(['llm.delta']);

/** Why an edge was chosen (spec §3.3 step). */
export type EdgeChoiceReason = 'condition' | 'preferred_label' | 'suggested_next_id' | 'weight' | 'failure_route' | 'handler';

/** The event types. */
export type RunEventType = RunEvent['type'];

/** An event as passed to {@link emitEvent}: everything but the timestamp. */
export type RunEventInput = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'at'> : never) : never;
