import type { Interviewer } from '@orchestra/core';
import type { EventEmitter } from 'eventemitter3';
import type { ProjectWorkspace } from './project-workspace.js';
import type { RunPort } from './run-port.js';
import type { SessionEvents } from './session-events.js';
import type { SessionMachine } from './session-machine.js';
import type { SessionData } from './session-store.js';

/**
 * What the parts of a session (the agent's turn, its tool calls, the runs
 * it delegates) work on together: the state machine, the data that is
 * saved, the runs, the person, and the events for whoever shows it.
 */
export interface SessionContext {
  readonly machine: SessionMachine;
  readonly data: SessionData;
  readonly runs: RunPort;
  readonly workspace: ProjectWorkspace;
  /** Who approves runs and answers the questions of launched runs. */
  readonly interviewer: Interviewer;
  /** Ask before every run. */
  readonly requireApproval: boolean;
  readonly events: EventEmitter<SessionEvents>;
  /** Saves the session (after every step). */
  save(): void;
  /** The person asked to cancel the active run: its end is reported as cancelled. */
  cancelRequested: boolean;
  /** The process is going away: the active run's end is not the session's business now. */
  detached: boolean;
}
