import { HumanMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { EventEmitter } from 'eventemitter3';
import type { Interviewer } from '@orchestra/core';
import type { TokenUsageFile } from '@orchestra/core/store';
import type { RunLauncher } from '../runs/run-launcher.js';
import { agentTurn, type SessionAgent } from './agent-turn.js';
import { conversationTurns, type ConversationTurn } from './conversation-turns.js';
import { launcherRunPort } from './launcher-run-port.js';
import type { ProjectWorkspace } from './project-workspace.js';
import { finishRun } from './run-delegation.js';
import type { SessionContext } from './session-context.js';
import type { SessionEvents } from './session-events.js';
import { SessionMachine, type SessionState } from './session-machine.js';
import { readSessionRecord, sessionDataOf, sessionRecordOf, writeSessionRecord, type SessionRecord } from './session-store.js';
import { bindSessionTools } from './session-tools.js';

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

/**
 * A persistent conversation in which one agent answers directly or
 * delegates to a pipeline run through `launch_run` (the seed's interactive
 * mode): approval through the Interviewer, a run's questions asked through
 * it too, messages queued while a run is active, cancellation with partial
 * results, a project workspace, and a session saved after every step.
 *
 * The class wires the parts: the agent's turn (`agent-turn.ts`), its tool
 * calls (`tool-calls.ts`), the runs it delegates (`run-delegation.ts`,
 * through a `RunPort`), and the saved record (`session-store.ts`).
 */
export class InteractiveSession extends EventEmitter<SessionEvents> {
  readonly machine: SessionMachine;
  private readonly context: SessionContext;
  private readonly agent: SessionAgent;

  constructor(readonly options: InteractiveSessionOptions, record?: SessionRecord) {
    super();
    this.agent = { model: bindSessionTools(options.model), ...(options.identity !== undefined ? { identity: options.identity } : {}) };
    this.machine = new SessionMachine(record?.state ?? 'IDLE');
    this.context = {
      machine: this.machine,
      data: sessionDataOf(record),
      runs: launcherRunPort(options.launcher),
      workspace: options.workspace,
      interviewer: options.interviewer,
      requireApproval: options.requireApproval !== false,
      events: this,
      save: () => this.save(),
      cancelRequested: false,
      detached: false,
    };
    this.machine.on('transition', (t) => {
      this.context.data.transitions.push(t);
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
    return [...this.context.data.runs];
  }

  /** The conversation so far as the person saw it (their messages, the agent's replies), oldest first: what `--resume` shows. */
  history(): ConversationTurn[] {
    return conversationTurns(this.context.data.transcript);
  }

  /** Tokens: the session agent's own (in the shape of `status.json`'s `usage`), and each run's total. */
  async tokens(): Promise<{ session: TokenUsageFile; runs: Record<string, number> }> {
    const runs: Record<string, number> = {};
    for (const id of this.context.data.runs) runs[id] = (await this.context.runs.result(id)).tokens?.total_tokens ?? 0;
    return { session: { ...this.context.data.usage }, runs };
  }

  /**
   * Takes a message from the person. In IDLE the agent handles it now (and
   * then every message queued meanwhile); while a run is active it is queued
   * for the agent (resolves at once).
   */
  async send(text: string): Promise<void> {
    if (this.state !== 'IDLE') {
      this.context.data.queue.push(text);
      this.emit('queued', text);
      this.save();
      return;
    }
    await this.turn(text);
    await this.drainQueue();
  }

  /** Cancels the active run (not the session): it stops at a safe point and the agent gets its partial results. */
  async cancelRun(): Promise<boolean> {
    const { active } = this.context.data;
    if (this.state !== 'RUNNING' || !active) return false;
    this.context.cancelRequested = true;
    await this.context.runs.cancel(active.run);
    return true;
  }

  /**
   * Before the process ends with a run active (`/quit`, end of input): the
   * session stays RUNNING on disk, so `--resume` re-attaches to the run,
   * which the launcher's close parks (at a question) or stops.
   */
  detach(): void {
    this.context.detached = true;
  }

  /**
   * After `--resume`: re-attaches to the run that was active (resuming it if
   * its process died) and finishes the turn; then handles queued messages.
   * No model call is made for past turns.
   */
  async recover(): Promise<void> {
    const { active } = this.context.data;
    if (this.state === 'RUNNING' && active) {
      // Stopped or parked when the last process went away: it goes on here (its questions asked again).
      await this.context.runs.reattach(active.run);
      await finishRun(this.context, active.call_id, active.run);
      await agentTurn(this.context, this.agent);
    } else if (this.state === 'CHATTING' || this.state.startsWith('PROCESSING')) {
      await agentTurn(this.context, this.agent);
    } else if (this.state === 'AWAITING_APPROVAL') {
      // The proposal was never answered: ask again.
      await agentTurn(this.context, this.agent, true);
    }
    await this.drainQueue();
  }

  /** Saves the session (after every step). */
  save(): void {
    writeSessionRecord(this.options.workspace.sessionFile, sessionRecordOf(this.machine.state, this.context.data));
  }

  private async turn(text: string): Promise<void> {
    this.context.data.transcript.push(new HumanMessage(text));
    this.machine.fire('message');
    await agentTurn(this.context, this.agent);
  }

  /** The messages queued while the session was busy, one turn each, while it is IDLE. */
  private async drainQueue(): Promise<void> {
    while (this.state === 'IDLE' && this.context.data.queue.length > 0) await this.turn(this.context.data.queue.shift() as string);
  }
}
