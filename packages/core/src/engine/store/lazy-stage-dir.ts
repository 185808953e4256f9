import type { StageStore } from './run-store.js';

/** The one getter every request shares: `stageDir`, the stage's directory, made only when read. */
const STAGE_DIR: PropertyDescriptor = {
  get(this: { stage: StageStore }): string {
    return this.stage.directory();
  },
  enumerable: true,
  configurable: true,
};

/**
 * `request` with a `stageDir` read from its `stage` when asked (a store
 * without directories makes one only then). Not `get stageDir() {...}` in
 * the object literal: V8 gives each such getter a holder in the old
 * generation that keeps the request's closure, and with it the whole node
 * step, alive through young collections, so a long run's heap fills with
 * promoted garbage (some 1.5 KB a node).
 */
export function withStageDir<T extends { stage: StageStore }>(request: T): T & { readonly stageDir: string } {
  return Object.defineProperty(request, 'stageDir', STAGE_DIR) as T & { readonly stageDir: string };
}
