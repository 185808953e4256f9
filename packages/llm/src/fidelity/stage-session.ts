import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { RunContext } from '@orchestra/core';
import { DEFAULT_FIDELITY, type Fidelity, type RunView } from '@orchestra/core/handlers';
import { buildPreamble, type PreambleMode } from './preamble.js';
import type { ThreadSessions } from './thread-sessions.js';

/** The file a stage's preamble is written to, in its stage directory. */
export const PREAMBLE_FILE = 'preamble.md';

/** What a stage's LLM session starts from. */
export interface SessionStart {
  /** The messages before the stage's prompt. */
  messages: BaseMessage[];
  /** The preamble mode used, or `full` when an earlier session continues. */
  mode: PreambleMode | 'full';
  /** True when `full` fidelity found no session to continue in this process after a resume (spec §5.4: `summary:high` for this node). */
  degraded: boolean;
}

/** What {@link startSession} needs of a request. */
export interface SessionRequest {
  node: { id: string };
  fidelity: Fidelity;
  run: RunView;
  context: RunContext;
  stageDir: string;
}

/**
 * The messages a stage's LLM session starts with (spec §5.4). Under `full`
 * the thread's earlier session continues when this process has it; without
 * one, a resumed run degrades to a `summary:high` preamble (the session was
 * lost with the process that stopped) and a fresh run starts with the default
 * `compact` preamble. Every other mode starts fresh with its own preamble.
 * A preamble is a system message after `system`, and is also written to
 * `preamble.md` in the stage directory.
 */
export function startSession(request: SessionRequest, sessions: ThreadSessions, system: string): SessionStart {
  const { fidelity, run } = request;
  let mode: PreambleMode;
  let degraded = false;
  if (fidelity.mode === 'full') {
    const earlier = sessions.get(run.id, fidelity.threadKey ?? request.node.id);
    if (earlier) return { messages: earlier, mode: 'full', degraded: false };
    degraded = run.resumedAfter > 0;
    mode = degraded ? 'summary:high' : (DEFAULT_FIDELITY as PreambleMode);
  } else {
    mode = fidelity.mode;
  }
  const preamble = buildPreamble({ mode, run, context: request.context, nodeId: request.node.id });
  try {
    writeFileSync(join(request.stageDir, PREAMBLE_FILE), `${preamble}\n`);
  } catch {
    // the preamble file is an aid for people, never a reason to fail a stage
  }
  return { messages: [new SystemMessage(system ? `${system}\n\n${preamble}` : preamble)], mode, degraded };
}

/** Keeps a finished stage's session for later stages of its thread (every stage: a later `full` stage may continue it). */
export function keepSession(request: SessionRequest, sessions: ThreadSessions, messages: readonly BaseMessage[]): void {
  sessions.set(request.run.id, request.fidelity.threadKey ?? request.node.id, request.node.id, messages);
}
