import type { RunStore } from '@orchestra/core';
import { describe } from 'vitest';
import type { RunStoreFactory } from './conformance/fixture.js';
import { leaseCases } from './conformance/lease-cases.js';
import { pipelineCases } from './conformance/pipeline-cases.js';
import { recordCases } from './conformance/record-cases.js';
import { stageCases } from './conformance/stage-cases.js';

export type { RunStoreFactory, RunStoreFixture } from './conformance/fixture.js';
export { sampleCheckpoint, sampleEntry, sampleManifest, sampleProcess } from './conformance/sample-records.js';

/**
 * The behaviour every {@link RunStore} must have, as vitest cases: records
 * read back as written (as copies), a torn journal or event line dropped and
 * cut off, exclusive creation, stages, process records, the lease (and its
 * takeover from a dead holder), successors, and real runs — an interrupted
 * and resumed run restores to the uninterrupted one's state, a parked run
 * resumes with a recorded answer.
 *
 * Call it at the top level of a test file; `factory` makes a fresh store for
 * each case, with hooks that simulate crashes.
 *
 * @example
 * ```ts
 * runStoreConformance('MemoryRunStore', () => {
 *   const store = new MemoryRunStore();
 *   return {
 *     store,
 *     tear: (s, text) => s.tearJournal(text),
 *     tearEvents: (s, text) => s.tearEvents(text),
 *     crash: (s) => s.simulateCrash(),
 *     cleanup: () => store.dispose(),
 *   };
 * });
 * ```
 */
export function runStoreConformance<S extends RunStore>(name: string, factory: RunStoreFactory<S>): void {
  describe(`RunStore conformance: ${name}`, () => {
    describe('records', () => recordCases(factory));
    describe('stages', () => stageCases(factory));
    describe('processes, lease and successors', () => leaseCases(factory));
    describe('runs', () => pipelineCases(factory));
  });
}

export { runCatalogueConformance, type RunCatalogueFactory, type RunCatalogueFixture } from './run-catalogue-conformance.js';
