import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { OrchestraError } from '../errors.js';
import type { StageStore } from '../engine/store/run-store.js';
import { diskOp } from './run-files.js';
import { noSpaceIn } from '../engine/store/store-errors.js';

/** A name a stage file may have: one path segment, not `.` or `..`. */
export function checkStageFileName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new OrchestraError('ORCH_BAD_PATH', `${JSON.stringify(name)} is not a stage file name (one path segment)`);
  }
}

/** The stage directory of a run directory: `<logsRoot>/<nodeId>`, created on the spot. */
export function openFileStage(logsRoot: string, nodeId: string): StageStore {
  checkStageFileName(nodeId);
  const dir = join(logsRoot, nodeId);
  let reused = false;
  try {
    diskOp(dir, () => mkdirSync(dir)); // one system call: the run directory exists
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    reused = true;
  }
  return {
    nodeId,
    reused,
    read(name) {
      checkStageFileName(name);
      const path = join(dir, name);
      // Most reads of a missing file are expected (status.json a handler did not write): asking costs far less than a thrown ENOENT.
      if (!existsSync(path)) return undefined;
      try {
        return readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    write(name, text) {
      checkStageFileName(name);
      const path = join(dir, name);
      diskOp(path, () => writeFileSync(path, text));
    },
    remove(name) {
      checkStageFileName(name);
      rmSync(join(dir, name), { force: true });
    },
    openStream: (name) => openFileStream(dir, name),
    directory: () => dir,
  };
}

/** Creates (or empties) `<dir>/<name>` and gives a stream writing to it; a full disk is a `NoSpaceError`. */
export async function openFileStream(dir: string, name: string) {
  checkStageFileName(name);
  const path = join(dir, name);
  try {
    const handle = await open(path, 'w');
    return handle.createWriteStream();
  } catch (error) {
    throw noSpaceIn(error, path) ?? error;
  }
}
