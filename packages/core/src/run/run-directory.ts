import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OrchestraError } from '../errors.js';
import { CheckpointError } from './checkpoint.js';
import { ManifestSchema, type Manifest } from './manifest.js';
import { RUN_FILES, writeJson } from './run-files.js';
import { writeFileSync } from 'node:fs';

/** `YYYYMMDD-HHMMSS-mmm` in UTC, sortable. */
function stamp(date: Date): string {
  const iso = date.toISOString(); // 2026-11-22T03:31:57.123Z
  return `${iso.slice(0, 10).replace(/-/g, '')}-${iso.slice(11, 19).replace(/:/g, '')}-${iso.slice(20, 23)}`;
}

/** The default run directory: `.orchestra/runs/<timestamp>-<pipeline>` under `base`. */
export function defaultLogsRoot(pipeline: string, base = process.cwd(), now = new Date()): string {
  const name = pipeline.replace(/[^A-Za-z0-9_.-]/g, '_') || 'pipeline';
  return join(base, '.orchestra', 'runs', `${stamp(now)}-${name}`);
}

/**
 * Creates a run directory with its manifest and a copy of the pipeline
 * source (what `resume` loads). Refuses a directory that already holds a run.
 */
export function createRunDirectory(logsRoot: string, manifest: Manifest, source: string | undefined): void {
  if (existsSync(join(logsRoot, RUN_FILES.manifest)) || existsSync(join(logsRoot, RUN_FILES.checkpoint))) {
    throw new OrchestraError('ORCH_RUN_EXISTS', `${logsRoot} already holds a run; resume it with \`orchestra resume ${logsRoot}\` or choose another --logs-dir`);
  }
  mkdirSync(logsRoot, { recursive: true });
  writeJson(join(logsRoot, RUN_FILES.manifest), manifest);
  if (source !== undefined) writeFileSync(join(logsRoot, RUN_FILES.pipeline), source);
}

/** Reads and checks `manifest.json`. */
export function readManifest(logsRoot: string): Manifest {
  const path = join(logsRoot, RUN_FILES.manifest);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new CheckpointError(missing ? `${logsRoot} is not an orchestra run directory (no ${RUN_FILES.manifest})` : `${path} is corrupt: ${(error as Error).message}`, { cause: error });
  }
  const parsed = ManifestSchema.safeParse(data);
  if (!parsed.success) throw new CheckpointError(`${path} is not an orchestra run manifest: ${parsed.error.issues[0]?.message ?? 'unexpected shape'}`);
  return parsed.data;
}
