import { createHash } from 'node:crypto';
import type { Manifest } from './records.js';
import { CheckpointError } from './store-errors.js';

/** The SHA-256 (hex) of a pipeline source, as `manifest.json` records it (`pipeline_sha256`). */
export function pipelineHash(source: string): string {
  return createHash('sha256').update(source, 'utf8').digest('hex');
}

/**
 * Refuses a run whose stored pipeline no longer matches the hash its
 * manifest recorded when it was created: the copy was edited (by a person,
 * or by a tool writing into the run directory), and resuming it would run
 * what nobody started. A stored source with no recorded hash is refused too:
 * every run this orchestra creates records one.
 */
export function checkPipelineHash(location: string, manifest: Manifest, source: string): void {
  const recorded = manifest.pipeline_sha256;
  if (recorded === undefined) {
    throw new CheckpointError(
      `${location}/manifest.json records no pipeline_sha256, so pipeline.dot cannot be checked against the pipeline the run was started with; the run was left untouched (start it again with orchestra run)`,
    );
  }
  const actual = pipelineHash(source);
  if (actual !== recorded) {
    throw new CheckpointError(
      `${location}/pipeline.dot is not the pipeline the run was started with (sha256 ${actual.slice(0, 12)}…, recorded ${recorded.slice(0, 12)}…): it was changed after the run began; the run was left untouched`,
    );
  }
}
