import type { RunStore } from '@orchestra/core';
import type { RunStoreFactory, RunStoreFixture } from './fixture.js';

/** Runs `body` on a fresh fixture and cleans it up afterwards, whatever happens. */
export async function withFixture<S extends RunStore>(factory: RunStoreFactory<S>, body: (fixture: RunStoreFixture<S>) => Promise<void>): Promise<void> {
  const fixture = await factory();
  try {
    await body(fixture);
  } finally {
    await fixture.cleanup();
  }
}

/** The error `action` throws (failing when it throws none). */
export async function thrownBy(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, and it did not');
}
