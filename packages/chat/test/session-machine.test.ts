import { describe, expect, it } from 'vitest';
import { IllegalTransitionError, SESSION_STATES, SESSION_TRANSITIONS, SessionMachine, legalEvents, type SessionEvent, type SessionState } from '../src/index.js';

const EVENTS: SessionEvent[] = ['message', 'reply', 'launch', 'approve', 'cancel', 'complete', 'fail', 'cancel_run', 'summarized'];

function at(state: SessionState): SessionMachine {
  return new SessionMachine(state);
}

describe('the session state machine (the seed)', () => {
  it('draws exactly the seed: idle → chatting → reply, or launch → approval → running → processing → idle', () => {
    expect(SESSION_TRANSITIONS).toEqual({
      IDLE: { message: 'CHATTING' },
      CHATTING: { reply: 'IDLE', launch: 'AWAITING_APPROVAL' },
      AWAITING_APPROVAL: { approve: 'RUNNING', cancel: 'IDLE' },
      RUNNING: { complete: 'PROCESSING_RESULTS', fail: 'PROCESSING_PARTIAL', cancel_run: 'PROCESSING_CANCELLED' },
      PROCESSING_RESULTS: { summarized: 'IDLE' },
      PROCESSING_PARTIAL: { summarized: 'IDLE' },
      PROCESSING_CANCELLED: { summarized: 'IDLE' },
    });
  });

  it('takes every legal transition and emits it', () => {
    for (const state of SESSION_STATES) {
      for (const event of legalEvents(state)) {
        const machine = at(state);
        const seen: unknown[] = [];
        machine.on('transition', (t) => seen.push(t));
        const t = machine.fire(event);
        const to = (SESSION_TRANSITIONS[state] as Record<string, string>)[event];
        expect(machine.state).toBe(to);
        expect(seen).toEqual([t]);
        expect(t).toMatchObject({ from: state, event, to });
      }
    }
  });

  it('refuses every illegal transition and stays where it was', () => {
    let refused = 0;
    for (const state of SESSION_STATES) {
      for (const event of EVENTS.filter((e) => !legalEvents(state).includes(e))) {
        const machine = at(state);
        const seen: unknown[] = [];
        machine.on('transition', (t) => seen.push(t));
        expect(machine.can(event)).toBe(false);
        expect(() => machine.fire(event)).toThrow(IllegalTransitionError);
        expect(machine.state).toBe(state);
        expect(seen).toEqual([]);
        refused += 1;
      }
    }
    // 7 states × 9 events, 11 of them legal.
    expect(refused).toBe(7 * 9 - 11);
    expect(() => at('RUNNING').fire('message')).toThrow('a session in RUNNING cannot take message (it takes: complete, fail, cancel_run)');
  });
});
