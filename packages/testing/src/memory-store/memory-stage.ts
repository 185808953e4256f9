import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { StageStore } from '@orchestra/core';
import { checkStageFileName, openFileStream } from '@orchestra/core/store';

function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * One node's stage in memory. Its files stay in a map until something asks
 * for a real {@link StageStore.directory}: then a temporary directory is made,
 * the files move there, and from then on the directory holds them (so files a
 * tool writes there are the stage's files).
 */
export class MemoryStage {
  private readonly files = new Map<string, string>();
  private dir: string | undefined;

  constructor(
    readonly nodeId: string,
    /** Told about the temporary directory when one is made (for disposal). */
    private readonly madeDirectory: (dir: string) => void,
  ) {
    checkStageFileName(nodeId);
  }

  /** A view of the stage for one visit. */
  open(reused: boolean): StageStore {
    return new StageVisit(this, reused);
  }

  /** A file's text; `undefined` when there is none. */
  read(name: string): string | undefined {
    checkStageFileName(name);
    return this.dir === undefined ? this.files.get(name) : readIfThere(join(this.dir, name));
  }

  /** Writes (replaces) a file. */
  write(name: string, text: string): void {
    checkStageFileName(name);
    if (this.dir === undefined) this.files.set(name, text);
    else writeFileSync(join(this.dir, name), text);
  }

  /** Removes a file, if there is one. */
  remove(name: string): void {
    checkStageFileName(name);
    if (this.dir === undefined) this.files.delete(name);
    else rmSync(join(this.dir, name), { force: true });
  }

  /** A stream writing a file: in the stage's directory (made now if need be), as a command's output goes beside the files it reads. */
  openStream(name: string): Promise<Writable> {
    checkStageFileName(name);
    return openFileStream(this.directory(), name);
  }

  /** The stage's directory, made (and the files moved there) on the first call. */
  directory(): string {
    if (this.dir !== undefined) return this.dir;
    const dir = mkdtempSync(join(tmpdir(), `orchestra-stage-${this.nodeId.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
    for (const [name, text] of this.files) writeFileSync(join(dir, name), text);
    this.files.clear();
    this.dir = dir;
    this.madeDirectory(dir);
    return dir;
  }
}

/** One visit of a {@link MemoryStage} (methods on the prototype: a visit per node costs one small object). */
class StageVisit implements StageStore {
  constructor(
    private readonly stage: MemoryStage,
    readonly reused: boolean,
  ) {}

  get nodeId(): string {
    return this.stage.nodeId;
  }

  read(name: string): string | undefined {
    return this.stage.read(name);
  }

  write(name: string, text: string): void {
    this.stage.write(name, text);
  }

  remove(name: string): void {
    this.stage.remove(name);
  }

  openStream(name: string): Promise<Writable> {
    return this.stage.openStream(name);
  }

  directory(): string {
    return this.stage.directory();
  }
}
