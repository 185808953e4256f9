import { appendFile, readFile, writeFile } from 'node:fs/promises';
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

  /** Creates (or replaces) `file` with `header` as its first line. */
  static async create(file: string, header: CassetteHeader): Promise<CassetteWriter> {
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
