import { quoteShort } from './request-record.js';
import { httpError, reply } from './steps.js';
import type { RecordedRequest, Responder, ScriptStep } from './types.js';

/** One exchange of a {@link scriptConversation}. */
export interface ConversationTurn {
  /**
   * What the last user message of the request must look like: a string it
   * must contain, a RegExp it must match, or a predicate. Omit to accept anything.
   */
  expect?: string | RegExp | ((lastUserText: string, request: RecordedRequest) => boolean);
  /** The answer: assistant text, or any step (tool calls, an error, a drop...). */
  reply: string | ScriptStep;
}

/** The responder returned by {@link scriptConversation}, with its progress. */
export interface ScriptedConversation extends Responder {
  /** Turns answered so far. */
  readonly turnsUsed: number;
  /** Turns not answered yet; 0 when the conversation went as scripted. */
  readonly turnsLeft: number;
}

function describeExpectation(expect: NonNullable<ConversationTurn['expect']>): string {
  if (typeof expect === 'string') return `to contain ${JSON.stringify(expect)}`;
  if (expect instanceof RegExp) return `to match ${String(expect)}`;
  return `to satisfy ${expect.name === '' ? 'the predicate' : `${expect.name}()`}`;
}

function matches(expect: NonNullable<ConversationTurn['expect']>, text: string, request: RecordedRequest): boolean {
  if (typeof expect === 'string') return text.includes(expect);
  if (expect instanceof RegExp) {
    expect.lastIndex = 0;
    return expect.test(text);
  }
  return expect(text, request);
}

/**
 * A responder playing a scripted conversation: each chat-completion request
 * takes the next turn, whose `expect` is checked against the request's last
 * user message. On a mismatch, or when every turn is used, the server answers
 * 500 with a message saying what was expected and what arrived, so the test
 * fails with a clear error instead of a wrong answer. A mismatched turn is
 * not consumed (a client retry meets the same check again).
 *
 * Steps queued with `server.enqueue()` take precedence, so a test can inject
 * a failure (say `httpError(429)`) between two turns.
 *
 * @example
 * const conversation = scriptConversation([
 *   { expect: 'Write a plan', reply: '1. Parse 2. Run' },
 *   { expect: /review/i, reply: 'Looks good.' },
 * ]);
 * const server = await startScriptedOpenAIServer({ responder: conversation });
 * // ... run the pipeline against server.url ...
 * expect(conversation.turnsLeft).toBe(0);
 */
export function scriptConversation(turns: readonly ConversationTurn[]): ScriptedConversation {
  let used = 0;
  const respond = (request: RecordedRequest): ScriptStep => {
    const turn = turns[used];
    const received = quoteShort(request.lastUserText, 500);
    if (turn === undefined) {
      return httpError(500, {
        message: `scripted conversation: all ${turns.length} turns are used, but request #${request.index} arrived (last user message: ${received})`,
      });
    }
    if (turn.expect !== undefined && !matches(turn.expect, request.lastUserText ?? '', request)) {
      return httpError(500, {
        message: `scripted conversation: turn ${used + 1} of ${turns.length} expected the last user message ${describeExpectation(turn.expect)}, but it was ${received} (request #${request.index})`,
      });
    }
    used += 1;
    return typeof turn.reply === 'string' ? reply(turn.reply) : turn.reply;
  };
  return Object.defineProperties(respond, {
    turnsUsed: { get: () => used, enumerable: true },
    turnsLeft: { get: () => turns.length - used, enumerable: true },
  }) as ScriptedConversation;
}
