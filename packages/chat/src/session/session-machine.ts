import { OrchestraError } from '@orchestra/core';
import { EventEmitter } from 'eventemitter3';
import type { ChatErrorCode } from '../chat-error-codes.js';

/** The states of an interactive session (the seed's state machine). */
export const SESSION_STATES = ['IDLE', 'CHATTING', 'AWAITING_APPROVAL', 'RUNNING', 'PROCESSING_RESULTS', 'PROCESSING_PARTIAL', 'PROCESSING_CANCELLED'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/**
 * What moves a session: a person's `message`; the agent's direct `reply` or
 * its `launch` of a run; the proposal's `approve` or `cancel`; the run's
 * `complete`, `fail` (an error or timeout, with partial results) or
 * `cancel_run`; `summarized` once the agent has reported on the run.
 */
export type SessionEvent = 'message' | 'reply' | 'launch' | 'approve' | 'cancel' | 'complete' | 'fail' | 'cancel_run' | 'summarized';

/** Every legal transition: state → event → next state. Nothing else changes a session's state. */
export const SESSION_TRANSITIONS = {
  IDLE: { message: 'CHATTING' },
  CHATTING: { reply: 'IDLE', launch: 'AWAITING_APPROVAL' },
  AWAITING_APPROVAL: { approve: 'RUNNING', cancel: 'IDLE' },
  RUNNING: { complete: 'PROCESSING_RESULTS', fail: 'PROCESSING_PARTIAL', cancel_run: 'PROCESSING_CANCELLED' },
  PROCESSING_RESULTS: { summarized: 'IDLE' },
  PROCESSING_PARTIAL: { summarized: 'IDLE' },
  PROCESSING_CANCELLED: { summarized: 'IDLE' },
} as const satisfies { [S in SessionState]: Partial<Record<SessionEvent, SessionState>> };

/** The events a state accepts. */
export type EventsOf<S extends SessionState> = keyof (typeof SESSION_TRANSITIONS)[S] & SessionEvent;

/** One transition, as the session emits it (and records it). */
export interface SessionTransition {
  from: SessionState;
  event: SessionEvent;
  to: SessionState;
  at: string;
}

/** Thrown for an event the current state does not accept; the state is left as it was. Code `ORCH_ILLEGAL_TRANSITION`. */
export class IllegalTransitionError extends OrchestraError<Extract<ChatErrorCode, 'ORCH_ILLEGAL_TRANSITION'>> {
  constructor(
    readonly state: SessionState,
    readonly event: SessionEvent,
  ) {
    const legal = Object.keys(SESSION_TRANSITIONS[state]).join(', ');
    super('ORCH_ILLEGAL_TRANSITION', `a session in ${state} cannot take ${event} (it takes: ${legal})`);
    this.name = 'IllegalTransitionError';
  }
}

/** The events a state accepts, at run time. */
export function legalEvents(state: SessionState): SessionEvent[] {
  return Object.keys(SESSION_TRANSITIONS[state]) as SessionEvent[];
}

/**
 * The session's state machine: the state changes only through
 * {@link fire}, only along {@link SESSION_TRANSITIONS}, and every change is
 * a `transition` event.
 */
export class SessionMachine extends EventEmitter<{ transition: [SessionTransition] }> {
  #state: SessionState;

  constructor(initial: SessionState = 'IDLE') {
    super();
    this.#state = initial;
  }

  get state(): SessionState {
    return this.#state;
  }

  /** Whether the current state accepts `event`. */
  can(event: SessionEvent): boolean {
    return Object.hasOwn(SESSION_TRANSITIONS[this.#state], event);
  }

  /** Moves along `event`; throws {@link IllegalTransitionError} when the state does not accept it. */
  fire(event: SessionEvent): SessionTransition {
    const table = SESSION_TRANSITIONS[this.#state] as Partial<Record<SessionEvent, SessionState>>;
    const to = table[event];
    if (to === undefined) throw new IllegalTransitionError(this.#state, event);
    const transition: SessionTransition = { from: this.#state, event, to, at: new Date().toISOString() };
    this.#state = to;
    this.emit('transition', transition);
    return transition;
  }
}
