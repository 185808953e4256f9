import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** `filepaths.json`: the project's context paths (files and directories, relative to the project). */
export const FilepathsSchema = z.strictObject({ paths: z.array(z.string().min(1)) });

/**
 * A chat session's project directory: `CONTEXT.md` (in the agent's prompt,
 * editable by the agent), `filepaths.json` (context paths every run gets),
 * `runs/` (the launched runs, each with `run_description.json`),
 * `deliverables/` (the source of truth for outputs: the agent copies results
 * there) and `.orchestra/session.json` (the durable session).
 */
export class ProjectWorkspace {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
  }

  /** Creates what is missing (the directories, an empty CONTEXT.md and filepaths.json). */
  ensure(): this {
    for (const d of [this.dir, this.runsDir, this.deliverablesDir, join(this.dir, '.orchestra')]) mkdirSync(d, { recursive: true });
    if (!existsSync(this.contextFile)) writeFileSync(this.contextFile, '# Project context\n\n');
    if (!existsSync(this.filepathsFile)) writeFileSync(this.filepathsFile, `${JSON.stringify({ paths: [] }, null, 2)}\n`);
    return this;
  }

  get contextFile(): string {
    return join(this.dir, 'CONTEXT.md');
  }
  get filepathsFile(): string {
    return join(this.dir, 'filepaths.json');
  }
  get runsDir(): string {
    return join(this.dir, 'runs');
  }
  get deliverablesDir(): string {
    return join(this.dir, 'deliverables');
  }
  get sessionFile(): string {
    return join(this.dir, '.orchestra', 'session.json');
  }

  /** Moves a saved session aside (`.orchestra/session-<time>.json`) before a new one starts; its path, or undefined when there was none. */
  archiveSession(): string | undefined {
    if (!existsSync(this.sessionFile)) return undefined;
    const kept = join(this.dir, '.orchestra', `session-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    renameSync(this.sessionFile, kept);
    return kept;
  }

  /** CONTEXT.md's text ('' when there is none). */
  context(): string {
    return existsSync(this.contextFile) ? readFileSync(this.contextFile, 'utf8') : '';
  }

  /** Replaces CONTEXT.md (atomically). */
  writeContext(text: string): void {
    const temp = `${this.contextFile}.${process.pid}.tmp`;
    writeFileSync(temp, text.endsWith('\n') ? text : `${text}\n`);
    renameSync(temp, this.contextFile);
  }

  /** The context paths of filepaths.json; a clear error when it is not valid. */
  contextPaths(): string[] {
    if (!existsSync(this.filepathsFile)) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(this.filepathsFile, 'utf8'));
    } catch (error) {
      throw new Error(`${this.filepathsFile} is not valid JSON: ${(error as Error).message}`);
    }
    const checked = FilepathsSchema.safeParse(parsed);
    if (!checked.success) throw new Error(`${this.filepathsFile} must be {"paths": ["file or directory", ...]}: ${checked.error.issues[0]?.message ?? 'unexpected shape'}`);
    return checked.data.paths;
  }
}
