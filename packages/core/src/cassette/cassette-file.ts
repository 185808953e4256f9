import { appendFile, open, readFile, writeFile } from 'node:fs/promises';
import { OrchestraError } from '../errors.js';
import { z } from 'zod';
import { CassetteError } from './cassette-error.js';
import { CassetteEntrySchema, CassetteHeaderSchema, type CassetteEntry, type CassetteHeader } from './cassette-format.js';

/** A recorded exchange and the cassette line it came from. */
export type CassetteLine = CassetteEntry & { line: number };

/** A cassette as read: its header and its exchanges in recorded order. */
export interface CassetteContents {
  file: string;
  header: CassetteHeader;
  entries: CassetteLine[];
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'not a cassette line';
  const path = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `${path}${issue.message}`;
}

/**
 * Reads a cassette (JSON Lines: a header, then one exchange a line). A line
 * that is not JSON or not what orchestra writes is an `ORCH_CASSETTE_DAMAGED`
 * error naming `file:line`; an unreadable file is one too, naming the file.
 */
export async function readCassette(file: string): Promise<CassetteContents> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new CassetteError('ORCH_CASSETTE_DAMAGED', `cannot read the cassette ${file}: ${reason}`, { cause: error });
  }
  const lines = text.split('\n');
  let header: CassetteHeader | undefined;
  const entries: CassetteLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] as string;
    if (!raw.trim()) continue;
    const at = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${at}: the cassette is damaged: the line is not JSON (${(error as Error).message})`, { cause: error });
    }
    if (header === undefined) {
      const parsed = CassetteHeaderSchema.safeParse(value);
      if (!parsed.success) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${at}: not an orchestra cassette (the first line must be its header; ${issueText(parsed.error)})`);
      header = parsed.data;
      continue;
    }
    const parsed = CassetteEntrySchema.safeParse(value);
    if (!parsed.success) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${at}: the cassette is damaged: ${issueText(parsed.error)}`);
    entries.push({ ...parsed.data, line: i + 1 });
  }
  if (header === undefined) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `${file}:1: the cassette is empty (no header line)`);
  return { file, header, entries };
}

/** Why `file` may not be replaced by a new cassette: it is something else (not empty, and its first line no cassette header). */
async function replaceProblem(file: string): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') return 'is a directory';
    return undefined; // writing will say what is wrong
  }
  try {
    if ((await handle.stat()).isDirectory()) return 'is a directory';
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(4096), 0, 4096, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    if (head.trim() === '') return undefined;
    const first = head.split('\n')[0] as string;
    try {
      if (CassetteHeaderSchema.safeParse(JSON.parse(first)).success) return undefined;
    } catch {
      // not JSON: not a cassette
    }
    return 'exists and is not a cassette';
  } finally {
    await handle.close();
  }
}

/**
 * Writes a cassette as a run goes: the header at once, then each exchange as
 * a line when it completes (in order, one write at a time), so a cassette of
 * a run that was killed holds everything up to then.
 */
export class CassetteWriter {
  private queue: Promise<void>;
  private failure: unknown;

  private constructor(
    readonly file: string,
    first: Promise<void>,
  ) {
    this.queue = first.catch((error: unknown) => {
      this.failure = error;
    });
  }

  /**
   * Creates `file` with `header` as its first line, replacing an earlier
   * cassette there; any other file is left alone (`ORCH_PATH`): a mistyped
   * name must not overwrite a pipeline or a source file.
   */
  static async create(file: string, header: CassetteHeader): Promise<CassetteWriter> {
    const problem = await replaceProblem(file);
    if (problem) throw new OrchestraError('ORCH_PATH', `${file} ${problem}; --record writes a new file or replaces a cassette: choose another name`);
    await writeFile(file, `${JSON.stringify(header)}\n`, 'utf8');
    return new CassetteWriter(file, Promise.resolve());
  }

  /** Appends an exchange (after those before it). */
  append(entry: CassetteEntry): void {
    const line = `${JSON.stringify(entry)}\n`;
    this.queue = this.queue.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await appendFile(this.file, line, 'utf8');
      } catch (error) {
        this.failure = error;
      }
    });
  }

  /** Waits for every line appended so far; throws if one could not be written. */
  async flush(): Promise<void> {
    await this.queue;
    if (this.failure !== undefined) throw new CassetteError('ORCH_CASSETTE_DAMAGED', `could not write the cassette ${this.file}: ${(this.failure as Error).message}`, { cause: this.failure });
  }
}
