import { describe, expect, it } from 'vitest';
import type { RunEventType } from '@orchestra/core';
import { TRANSIENT_EVENT_TYPES } from '@orchestra/core/store';
import { RUN_EVENT_TYPES } from '../web/event-types.js';

/**
 * The page listens for each named event of the run stream (an EventSource
 * delivers a named event only to a listener for that name): a run event
 * type it does not list would be dropped without a word. The check is the
 * type below (the type check fails when core adds an event type the page
 * lacks); the test keeps the list free of names core does not have.
 */
type Listed = (typeof RUN_EVENT_TYPES)[number];
type Unlisted = Exclude<RunEventType, Listed | 'llm.delta'>;
const everyTypeListed: [Unlisted] extends [never] ? true : Unlisted = true;

describe("the page's list of run event names", () => {
  it('names every recorded run event type, and nothing else but message', () => {
    expect(everyTypeListed).toBe(true);
    const extra = RUN_EVENT_TYPES.filter((t) => t !== 'message' && TRANSIENT_EVENT_TYPES.has(t));
    expect(extra).toEqual([]);
    expect(new Set(RUN_EVENT_TYPES).size).toBe(RUN_EVENT_TYPES.length);
  });
});
