// A TypeScript consumer of the installed packages, type-checked with
// `tsc --noEmit` against their .d.ts files (module NodeNext, strict).
import { QueueInterviewer, loadPipeline, runPipeline, simulationBackend, type RunResult } from '@orchestra/core';
import type { Checkpoint } from '@orchestra/core/store';
import type { ModelBackendOptions } from '@orchestra/llm';
import { MemoryRunStore } from '@orchestra/testing';

export async function review(source: string): Promise<RunResult['status']> {
  const loaded = loadPipeline(source, { file: 'review.dot' });
  if (!loaded.graph) return 'fail';
  const result: RunResult = await runPipeline(loaded.graph, {
    backend: simulationBackend,
    interviewer: new QueueInterviewer(['A']),
    store: new MemoryRunStore(),
  });
  return result.status;
}

// The types are real, not `any`: each line below must be an error.
// @ts-expect-error a status is one of a few strings
export const wrongStatus: RunResult['status'] = 'finished-ish';
// @ts-expect-error QueueInterviewer takes answers, not a number
export const wrongQueue = new QueueInterviewer(42);
// @ts-expect-error options of the model backend have no such field
export const wrongOptions: ModelBackendOptions = { notAnOption: true };
// @ts-expect-error a checkpoint's status is one of the run statuses (types from a subpath entry)
export const wrongCheckpoint: Checkpoint['status'] = 'finished-ish';
