import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OrchestraError, type StageStore } from '@orchestra/core';

/** Refuses a name that is not one path segment (as the file store does: code `ORCH_BAD_PATH`). */
export function checkStageName(name: string): void {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name)) {
    throw new OrchestraError('ORCH_BAD_PATH', `${JSON.stringify(name)} is not a stage file name (one path segment)`);
  }
}

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
    checkStageName(nodeId);
  }

  /** The temporary directory, if one was made. */
  get madeDir(): string | undefined {
    return this.dir;
  }

  /** A view of the stage for one visit. */
  open(reused: boolean): StageStore {
    return {
      nodeId: this.nodeId,
      reused,
      read: (name) => this.read(name),
      write: (name, text) => this.write(name, text),
      remove: (name) => this.remove(name),
      directory: () => this.directory(),
    };
  }

  private read(name: string): string | undefined {
    checkStageName(name);
    return this.dir === undefined ? this.files.get(name) : readIfThere(join(this.dir, name));
  }

  private write(name: string, text: string): void {
    checkStageName(name);
    if (this.dir === undefined) this.files.set(name, text);
    else writeFileSync(join(this.dir, name), text);
  }

  private remove(name: string): void {
    checkStageName(name);
    if (this.dir === undefined) this.files.delete(name);
    else rmSync(join(this.dir, name), { force: true });
  }

  private directory(): string {
    if (this.dir !== undefined) return this.dir;
    const dir = mkdtempSync(join(tmpdir(), `orchestra-stage-${this.nodeId.replace(/[^A-Za-z0-9_.-]/g, '_')}-`));
    for (const [name, text] of this.files) writeFileSync(join(dir, name), text);
    this.files.clear();
    this.dir = dir;
    this.madeDirectory(dir);
    return dir;
  }
}
