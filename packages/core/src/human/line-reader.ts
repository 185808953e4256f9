import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';

/** What waiting for a line gave: the line, end of input, or the time ran out. */
export type LineResult = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'timeout' };

/** Reads lines from a stream one request at a time, keeping lines that arrive early. */
export class LineReader {
  private rl: Interface | undefined;
  private readonly lines: string[] = [];
  private ended = false;
  private waiter: (() => void) | undefined;

  constructor(private readonly input: Readable) {}

  private open(): void {
    if (this.rl || this.ended) return;
    this.rl = createInterface({ input: this.input, terminal: false });
    this.rl.on('line', (line) => {
      this.lines.push(line);
      this.waiter?.();
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.waiter?.();
    });
  }

  /** The next line; `eof` at end of input; `timeout` after `timeoutMs`; rejects when `signal` aborts. */
  async next(timeoutMs?: number, signal?: AbortSignal): Promise<LineResult> {
    this.open();
    let timer: NodeJS.Timeout | undefined;
    let timedOut = false;
    try {
      while (this.lines.length === 0 && !this.ended && !timedOut) {
        if (signal?.aborted) throw signal.reason ?? new Error('aborted');
        await new Promise<void>((resolve) => {
          this.waiter = resolve;
          if (timeoutMs !== undefined && !timer) {
            timer = setTimeout(() => {
              timedOut = true;
              resolve();
            }, timeoutMs);
          }
          signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        this.waiter = undefined;
      }
    } finally {
      if (timer) clearTimeout(timer);
    }
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const line = this.lines.shift();
    if (line !== undefined) return { kind: 'line', line };
    return this.ended ? { kind: 'eof' } : { kind: 'timeout' };
  }

  /** Stops reading (lets the process exit). */
  close(): void {
    this.rl?.close();
    this.rl = undefined;
    this.ended = true;
  }
}
