import { AIMessage, HumanMessage, SystemMessage, ToolMessage, mapChatMessagesToStoredMessages, mapStoredMessagesToChatMessages, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { Runnable } from '@langchain/core/runnables';
import type { AIMessageChunk } from '@langchain/core/messages';
import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { EventEmitter } from 'eventemitter3';
import { Workspace } from '@orchestra/llm';
import { callModel } from '@orchestra/llm';
import { z } from 'zod';
import { matchOption, type Answer, type Interviewer, type Question, type TokenUsageFile } from '@orchestra/core';
import { LaunchRunInputSchema } from '../runs/launch-run-input.js';
import { LaunchError, type PreparedRun, type RunLauncher } from '../runs/run-launcher.js';
import type { RunResult } from '../runs/run-result.js';
import { ORCHESTRATOR_SECTION } from './orchestrator-section.js';
import { QUEUED_MESSAGES_HEADER, conversationTurns, textOf, type ConversationTurn } from './conversation-turns.js';
import { SessionMachine, type SessionState, type SessionTransition } from './session-machine.js';
import { SESSION_FORMAT, readSessionRecord, writeSessionRecord, type SessionRecord } from './session-store.js';
import type { ProjectWorkspace } from './project-workspace.js';

/** Most model calls in one turn (a turn that keeps calling tools is cut off). */
export const MAX_CALLS_PER_TURN = 8;

/** What the session tells whoever shows it (a terminal, a test). */
export interface SessionEvents {
  transition: [SessionTransition];
  /** The agent's text for the person. */
  agent: [string];
  /** A run was proposed, started, or ended. */
  run: [{ phase: 'proposed' | 'started' | 'ended'; id?: string; prepared?: PreparedRun; result?: RunResult }];
  /** A piece of the agent's text as it streams in. */
  delta: [string];
  /** The agent could not answer (its model call failed); the session is back in IDLE and saved. */
  failure: [string];
  /** A message was queued while a run is active. */
  queued: [string];
}

/** Options of {@link InteractiveSession}. */
export interface InteractiveSessionOptions {
  /** The session agent's model (tools are bound to it). */
  model: BaseChatModel;
  launcher: RunLauncher;
  workspace: ProjectWorkspace;
  /** Who approves runs and answers the questions of launched runs. */
  interviewer: Interviewer;
  /** Ask before every run (default true: `require_approval` in orchestra.yaml). */
  requireApproval?: boolean;
  /** Identity text (who the agent is) for the prompt; a default one otherwise. */
  identity?: string;
}

type ChatModel = Runnable<BaseMessage[], AIMessageChunk>;

const IDENTITY = 'You are orchestra, an assistant that talks with a person about their project and runs pipelines for them.';
const BEHAVIOUR = 'Be direct and brief. Say what you will do before doing it. Never invent results of runs: report what a run returned. When a run produced something the person should keep, save it into deliverables/ with save_deliverable (deliverables/ is the source of truth for outputs) and say where it is. Keep CONTEXT.md current with update_context when decisions are made.';

function launchTool(): StructuredToolInterface {
  return tool(async () => '', { name: 'launch_run', description: 'Launch a pipeline run for a task (see the orchestrator section). Returns the run result when it ends.', schema: LaunchRunInputSchema });
}

function contextTool(): StructuredToolInterface {
  return tool(async () => '', {
    name: 'update_context',
    description: "Replace the project's CONTEXT.md (shown to you in every turn) with new text: decisions, constraints, what the person prefers. Give the whole new text.",
    schema: z.strictObject({ text: z.string() }),
  });
}

function deliverableTool(): StructuredToolInterface {
  return tool(async () => '', {
    name: 'save_deliverable',
    description:
      'Save an output the person should keep into the project\'s deliverables/ directory (the source of truth for outputs): give `name` (a file name or path inside deliverables/) and either `content` (the text) or `from_run` ({ id, file }: a file of a run, relative to its run directory, such as "revise/response.md").',
    schema: z.strictObject({
      name: z.string().min(1),
      content: z.string().optional(),
      from_run: z.strictObject({ id: z.string().min(1), file: z.string().min(1) }).optional(),
    }),
  });
}

/** The proposal shown for approval. */
export function describeProposal(prepared: PreparedRun): string {
  const p = prepared.input;
  const lines = [`Run: ${p.task}`, `  pipeline: ${prepared.pipeline}`];
  if (p.agents) lines.push(`  agents: ${p.agents.join(', ')}`);
  if (p.context) lines.push(`  context: ${p.context.length > 200 ? `${p.context.slice(0, 199)}…` : p.context}`);
  if (p.context_paths?.length) lines.push(`  context paths: ${p.context_paths.join(', ')}`);
  return lines.join('\n');
}

/**
 * A persistent conversation in which one agent answers directly or
 * delegates to a pipeline run through `launch_run` (the seed's interactive
 * mode): approval through the Interviewer, a run's questions asked through
 * it too, messages queued while a run is active, cancellation with partial
 * results, a project workspace, and a session saved after every step.
 */
export class InteractiveSession extends EventEmitter<SessionEvents> {
  readonly machine: SessionMachine;
  private transcript: BaseMessage[] = [];
  private queue: string[] = [];
  private runs: string[] = [];
  private active: { run: string; call_id: string } | null = null;
  private usage: TokenUsageFile = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  private transitions: SessionTransition[] = [];
  private cancelRequested = false;
  /** Set by {@link detach}: the process is going away; the active run's end is not the session's business now. */
  private detached = false;
  private readonly model: ChatModel;

  constructor(readonly options: InteractiveSessionOptions, record?: SessionRecord) {
    super();
    if (!options.model.bindTools) throw new Error('the session model cannot call tools');
    this.model = options.model.bindTools([launchTool(), contextTool(), deliverableTool()]) as ChatModel;
    this.machine = new SessionMachine(record?.state ?? 'IDLE');
    if (record) {
      this.transcript = mapStoredMessagesToChatMessages(record.transcript as StoredMessage[]);
      this.queue = [...record.queue];
      this.runs = [...record.runs];
      this.active = record.active;
      this.usage = { ...record.usage };
      this.transitions = record.transitions as SessionTransition[];
    }
    this.machine.on('transition', (t) => {
      this.transitions.push(t);
      this.emit('transition', t);
      this.save();
    });
  }

  /** Opens the project's saved session (`--resume`), or a new one. */
  static open(options: InteractiveSessionOptions, resume: boolean): InteractiveSession {
    const record = resume ? readSessionRecord(options.workspace.sessionFile) : undefined;
    if (resume && !record) throw new Error(`no saved session in ${options.workspace.dir} to resume`);
    return new InteractiveSession(options, record);
  }

  get state(): SessionState {
    return this.machine.state;
  }

  /** The runs launched, oldest first. */
  runIds(): string[] {
    return [...this.runs];
  }

  /** The conversation so far as the person saw it (their messages, the agent's replies), oldest first: what `--resume` shows. */
  history(): ConversationTurn[] {
    return conversationTurns(this.transcript);
  }

  /** Tokens: the session agent's own (in the shape of `status.json`'s `usage`), and each run's total. */
  async tokens(): Promise<{ session: TokenUsageFile; runs: Record<string, number> }> {
    const runs: Record<string, number> = {};
    for (const id of this.runs) runs[id] = (await this.options.launcher.result(id)).tokens?.total_tokens ?? 0;
    return { session: { ...this.usage }, runs };
  }

  /**
   * Takes a message from the person. In IDLE the agent handles it now (and
   * then every message queued meanwhile); while a run is active it is queued
   * for the agent (resolves at once).
   */
  async send(text: string): Promise<void> {
    if (this.state !== 'IDLE') {
      this.queue.push(text);
      this.emit('queued', text);
      this.save();
      return;
    }
    await this.turn(text);
    while (this.state === 'IDLE' && this.queue.length > 0) await this.turn(this.queue.shift() as string);
  }

  /** Cancels the active run (not the session): it stops at a safe point and the agent gets its partial results. */
  async cancelRun(): Promise<boolean> {
    if (this.state !== 'RUNNING' || !this.active) return false;
    this.cancelRequested = true;
    await this.options.launcher.cancel(this.active.run);
    return true;
  }

  /**
   * Before the process ends with a run active (`/quit`, end of input): the
   * session stays RUNNING on disk, so `--resume` re-attaches to the run,
   * which the launcher's close parks (at a question) or stops.
   */
  detach(): void {
    this.detached = true;
  }

  /**
   * After `--resume`: re-attaches to the run that was active (resuming it if
   * its process died) and finishes the turn; then handles queued messages.
   * No model call is made for past turns.
   */
  async recover(): Promise<void> {
    if (this.state === 'RUNNING' && this.active) {
      const result = await this.options.launcher.result(this.active.run);
      // Stopped or parked when the last process went away: it goes on here (its questions asked again).
      if (result.status !== 'completed' && result.status !== 'failed' && !this.options.launcher.runs.isActive(this.active.run)) await this.options.launcher.runs.resume(this.active.run);
      await this.finishRun(this.active.call_id, this.active.run);
      await this.guarded(() => this.agentLoop());
    } else if (this.state === 'CHATTING' || this.state.startsWith('PROCESSING')) {
      await this.guarded(() => this.agentLoop());
    } else if (this.state === 'AWAITING_APPROVAL') {
      // The proposal was never answered: ask again.
      await this.guarded(() => this.agentLoop(true));
    }
    while (this.state === 'IDLE' && this.queue.length > 0) await this.turn(this.queue.shift() as string);
  }

  private async turn(text: string): Promise<void> {
    this.transcript.push(new HumanMessage(text));
    this.machine.fire('message');
    await this.guarded(() => this.agentLoop());
  }

  /**
   * Runs the agent; when its model call fails (a refused key, a lost
   * connection) the turn ends without a reply: the person is told, the
   * session goes back to IDLE and the conversation so far is kept.
   */
  private async guarded(work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // Back to IDLE along legal transitions, wherever the turn stopped.
      if (this.state === 'AWAITING_APPROVAL') this.machine.fire('cancel');
      if (this.state === 'RUNNING') {
        this.active = null;
        this.machine.fire('fail');
      }
      if (this.state === 'CHATTING') this.machine.fire('reply');
      else if (this.state.startsWith('PROCESSING')) this.machine.fire('summarized');
      this.emit('failure', message);
    }
  }

  private systemPrompt(): SystemMessage {
    const context = this.options.workspace.context().trim();
    return new SystemMessage(
      [ORCHESTRATOR_SECTION, `# Who you are\n\n${this.options.identity ?? IDENTITY}`, `# How you work\n\n${BEHAVIOUR}`, `# The project workspace\n\nProject directory: ${this.options.workspace.dir}\nCONTEXT.md:\n${context || '(empty)'}`].join('\n\n'),
    );
  }

  /** Calls the agent until it answers without a tool call (or a run's cancelled proposal ends the turn). */
  private async agentLoop(reaskPending = false): Promise<void> {
    for (let calls = 0; calls < MAX_CALLS_PER_TURN; calls += 1) {
      let message: AIMessage;
      const last = this.transcript[this.transcript.length - 1];
      if (reaskPending && last instanceof AIMessage && last.tool_calls?.length) {
        message = last;
        reaskPending = false;
      } else {
        if (this.detached) return;
        message = await this.callModel();
        this.transcript.push(message);
      }
      const calls_ = message.tool_calls ?? [];
      if (calls_.length === 0) {
        const text = textOf(message);
        if (text) this.emit('agent', text);
        if (this.state === 'CHATTING') this.machine.fire('reply');
        else if (this.state.startsWith('PROCESSING')) this.machine.fire('summarized');
        return;
      }
      if (textOf(message)) this.emit('agent', textOf(message));
      for (const call of calls_) {
        const id = call.id ?? `call_${this.transcript.length}`;
        if (call.name === 'update_context') {
          const text = typeof call.args.text === 'string' ? call.args.text : '';
          this.options.workspace.writeContext(text);
          this.transcript.push(new ToolMessage({ tool_call_id: id, content: 'CONTEXT.md updated.' }));
          continue;
        }
        if (call.name === 'save_deliverable') {
          this.transcript.push(new ToolMessage({ tool_call_id: id, content: await this.saveDeliverable(call.args) }));
          continue;
        }
        if (call.name !== 'launch_run') {
          this.transcript.push(new ToolMessage({ tool_call_id: id, content: `there is no tool ${call.name}` }));
          continue;
        }
        const ended = await this.launch(id, call.args);
        if (this.detached) return;
        if (ended === 'cancelled') {
          // Every call of the message needs an answer before the conversation goes on.
          for (const rest of calls_.slice(calls_.indexOf(call) + 1)) this.transcript.push(new ToolMessage({ tool_call_id: rest.id ?? '', content: 'not run: the launch before it was cancelled' }));
          this.save();
          return;
        }
      }
      this.save();
    }
    this.emit('agent', '(the agent kept calling tools; the turn was stopped)');
    if (this.state === 'CHATTING') this.machine.fire('reply');
    else if (this.state.startsWith('PROCESSING')) this.machine.fire('summarized');
  }

  /** Copies an output into deliverables/ (paths confined there; a run's file confined to its run directory). */
  private async saveDeliverable(args: Record<string, unknown>): Promise<string> {
    try {
      const name = String(args.name ?? '');
      const from = args.from_run as { id?: string; file?: string } | undefined;
      let content: string;
      if (typeof args.content === 'string') content = args.content;
      else if (from?.id && from.file) {
        const run = await this.options.launcher.result(from.id);
        content = readFileSync(new Workspace(run.run_dir).resolve(from.file), 'utf8');
      } else return 'save_deliverable refused: give content or from_run';
      const target = new Workspace(this.options.workspace.deliverablesDir).resolve(name, { write: true });
      writeFileSync(target, content);
      return `saved deliverables/${relative(this.options.workspace.deliverablesDir, target)} (${content.length} characters)`;
    } catch (error) {
      return `save_deliverable refused: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  /** One launch_run call: prepare, approve, run, result (as the tool's answer). */
  private async launch(callId: string, args: unknown): Promise<'ran' | 'refused' | 'cancelled'> {
    let prepared: PreparedRun;
    try {
      // Every run gets the project's context paths too.
      const given = args as { context_paths?: string[] };
      const paths = [...new Set([...this.options.workspace.contextPaths(), ...(given.context_paths ?? [])])];
      prepared = this.options.launcher.prepare({ ...(args as object), ...(paths.length ? { context_paths: paths } : {}) });
    } catch (error) {
      // If the proposal was being asked again after a resume, it is settled: refused.
      if (this.state === 'AWAITING_APPROVAL') this.machine.fire('cancel');
      this.transcript.push(new ToolMessage({ tool_call_id: callId, content: error instanceof Error ? error.message : String(error) }));
      return 'refused';
    }
    // AWAITING_APPROVAL: a resumed session asks again for the proposal it was killed at.
    if (this.state !== 'CHATTING' && this.state !== 'AWAITING_APPROVAL') {
      this.transcript.push(new ToolMessage({ tool_call_id: callId, content: 'launch_run refused: one run per message; report on the run that ended first' }));
      return 'refused';
    }
    if (this.state === 'CHATTING') this.machine.fire('launch');
    this.emit('run', { phase: 'proposed', prepared });
    if (this.options.requireApproval !== false) {
      const decision = await this.approve(prepared);
      if (decision !== 'approve') {
        this.transcript.push(new ToolMessage({ tool_call_id: callId, content: decision === 'cancel' ? 'The person cancelled this run. Nothing was launched.' : `The person wants changes before launching: ${decision.edit}` }));
        this.machine.fire('cancel');
        if (typeof decision === 'object') this.queue.unshift(decision.edit);
        return 'cancelled';
      }
    }
    let id: string;
    try {
      id = await this.options.launcher.start(prepared);
    } catch (error) {
      // Approved but refused by the launcher: the agent hears why and the run never started.
      this.machine.fire('approve');
      this.transcript.push(new ToolMessage({ tool_call_id: callId, content: `launch_run failed before the run started: ${error instanceof LaunchError ? error.message : String(error)}` }));
      this.machine.fire('fail');
      return 'refused';
    }
    this.runs.push(id);
    this.active = { run: id, call_id: callId };
    this.machine.fire('approve');
    this.emit('run', { phase: 'started', id, prepared });
    await this.finishRun(callId, id);
    return 'ran';
  }

  /** Waits for the active run (asking its questions), then hands its result to the agent. */
  private async finishRun(callId: string, id: string): Promise<void> {
    const result = await this.followRun(id);
    if (this.detached) return;
    this.active = null;
    this.transcript.push(new ToolMessage({ tool_call_id: callId, content: JSON.stringify(result) }));
    this.emit('run', { phase: 'ended', id, result });
    const cancelled = this.cancelRequested || result.status === 'cancelled';
    this.cancelRequested = false;
    this.machine.fire(cancelled ? 'cancel_run' : result.status === 'completed' ? 'complete' : 'fail');
    // Messages that came in during the run go to the agent with the result.
    if (this.queue.length > 0) {
      this.transcript.push(new HumanMessage(`${QUEUED_MESSAGES_HEADER}\n${this.queue.join('\n')}`));
      this.queue = [];
    }
  }

  /** Follows a run to its end, asking each of its questions through the interviewer (labelled with the run). */
  private async followRun(id: string): Promise<RunResult> {
    const launcher = this.options.launcher;
    const log = await launcher.runs.events(id);
    const asked = new Set<string>();
    const stopAsking = new AbortController();
    const ask = async (questions: { id: string; node_id: string; text: string; type: Question['type']; options: { key: string; label: string }[] }[]) => {
      for (const q of questions) {
        if (asked.has(q.id)) continue;
        asked.add(q.id);
        const question: Question = { text: `[run ${id}] ${q.text}`, type: q.type, options: q.options, stage: q.node_id, metadata: { run: id } };
        const answer: Answer = await this.options.interviewer.ask(question, { signal: stopAsking.signal });
        if (answer.value === 'SKIPPED') {
          // Nobody can answer (the input ended): the run stops where it is, resumable, and the agent hears so.
          this.cancelRequested = true;
          await launcher.cancel(id).catch(() => {});
          return;
        }
        const text = answer.selectedOption?.key ?? answer.text ?? answer.value;
        await launcher.answer(id, q.id, text).catch(() => {});
      }
    };
    await new Promise<void>((resolve) => {
      let chain = Promise.resolve();
      log.follow(log.size, {
        event: (e) => {
          if (e.type === 'questions') chain = chain.then(() => ask((JSON.parse(e.data) as { questions: Parameters<typeof ask>[0] }).questions)).catch(() => {});
        },
        // A question still open when the run stops (cancelled) is withdrawn.
        end: () => {
          stopAsking.abort(new Error(`run ${id} stopped`));
          resolve();
        },
      });
    });
    return launcher.result(id);
  }

  private async approve(prepared: PreparedRun): Promise<'approve' | 'cancel' | { edit: string }> {
    const question: Question = {
      text: `Launch this run?\n${describeProposal(prepared)}`,
      type: 'MULTIPLE_CHOICE',
      options: [
        { key: 'A', label: 'Approve' },
        { key: 'E', label: 'Edit' },
        { key: 'C', label: 'Cancel' },
      ],
      stage: 'launch_run',
      metadata: { kind: 'approval' },
    };
    const answer = await this.options.interviewer.ask(question);
    const key = answer.selectedOption?.key ?? matchOption(answer.value, question.options)?.key ?? (answer.value === 'YES' ? 'A' : 'C');
    if (key === 'A') return 'approve';
    if (key !== 'E') return 'cancel';
    const edit = await this.options.interviewer.ask({ text: 'What should change?', type: 'FREEFORM', options: [], stage: 'launch_run', metadata: { kind: 'approval-edit' } });
    const text = (edit.text ?? edit.value).trim();
    return text && edit.value !== 'SKIPPED' && edit.value !== 'TIMEOUT' ? { edit: text } : 'cancel';
  }

  private async callModel(): Promise<AIMessage> {
    // Streamed (the agent's text reaches the terminal as it comes); `invoke` would estimate tokens with tables it downloads.
    const reply = await callModel(this.model, [this.systemPrompt(), ...this.transcript], {
      signal: new AbortController().signal,
      modelName: 'session',
      report: { delta: (text) => void this.emit('delta', text), response: () => {}, toolCall: () => {} },
    });
    if (reply.usage) {
      this.usage.input_tokens += reply.usage.inputTokens;
      this.usage.output_tokens += reply.usage.outputTokens;
      this.usage.total_tokens += reply.usage.totalTokens;
    }
    return new AIMessage({ content: reply.message.content, tool_calls: reply.message.tool_calls ?? [] });
  }

  /** Saves the session (after every step). */
  save(): void {
    const record: SessionRecord = {
      format: SESSION_FORMAT,
      state: this.machine.state,
      transcript: mapChatMessagesToStoredMessages(this.transcript),
      queue: [...this.queue],
      runs: [...this.runs],
      active: this.active,
      usage: { ...this.usage },
      transitions: this.transitions,
    };
    writeSessionRecord(this.options.workspace.sessionFile, record);
  }
}
