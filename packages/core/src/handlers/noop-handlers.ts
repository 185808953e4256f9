import type { Handler } from '../engine/handler.js';

/** The start node: nothing to do (spec §4.3). */
export const startHandler: Handler = {
  execute: () => ({ status: 'success', notes: 'start' }),
};

/** The exit node: nothing to do; the engine enforces goal gates (spec §4.4). */
export const exitHandler: Handler = {
  execute: () => ({ status: 'success', notes: 'exit' }),
};

/** A routing point: succeeds; the engine evaluates the outgoing conditions (spec §4.7). */
export const conditionalHandler: Handler = {
  execute: ({ node }) => ({ status: 'success', notes: `Conditional node evaluated: ${node.id}` }),
};
