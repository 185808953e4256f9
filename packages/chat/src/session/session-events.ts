import type { PreparedRun } from '../runs/run-launcher.js';
import type { RunResult } from '../runs/run-result.js';
import type { SessionTransition } from './session-machine.js';

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
