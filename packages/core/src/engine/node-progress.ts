import type { JsonValue } from './outcome.js';

/**
 * In-node progress of a run (what `HandlerInput.saveProgress` writes): a
 * node that has not completed can record how far it got, durably, and gets
 * it back as `HandlerInput.progress` when a resumed run (or a retry) runs it
 * again. The engine drops a node's entry when the node completes.
 */
export interface ProgressStore {
  /** A copy of what `nodeId` saved, if anything. */
  get(nodeId: string): JsonValue | undefined;
  /** Records `data` for `nodeId` in the checkpoint at once; `undefined` clears it. */
  save(nodeId: string, data: JsonValue | undefined): Promise<void>;
  /** Forgets `nodeId`'s entry in memory (the node completed; the next checkpoint no longer has it). */
  discard(nodeId: string): void;
}
