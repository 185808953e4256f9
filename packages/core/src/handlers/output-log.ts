import type { Readable, Writable } from 'node:stream';
import type { Awaitable } from '../engine/store/run-store.js';
import { noSpaceIn } from '../engine/store/store-errors.js';
import type { OutputCapture } from './output-capture.js';

/** Where an output stream goes: a file `open` creates (or empties), called `name` in messages (its path, when it has one). */
export interface OutputSink {
  open: () => Awaitable<Writable>;
  name: string;
}

/**
 * One output stream of a command written to a file as raw bytes while it
 * runs (with back-pressure: the command waits when the disk is slower),
 * each chunk also shown to an {@link OutputCapture} that keeps a bounded
 * part in memory. A write error is kept and reported by {@link close}; the
 * stream is still drained so the command is never blocked on a full pipe.
 */
export class OutputLog {
  #source: Readable | undefined;
  #error: unknown;
  /** Bytes that may still be read without waiting for the file (see {@link unthrottle}). */
  #unthrottled = 0;
  #ended!: () => void;
  /** Resolves when the attached stream has ended or was closed (the writers' ends are all closed). */
  readonly ended: Promise<void> = new Promise((resolve) => {
    this.#ended = resolve;
  });

  private constructor(
    private readonly file: Writable,
    private readonly capture: OutputCapture,
    private readonly path: string,
  ) {
    file.on('error', (error) => {
      this.#error ??= error;
      this.#source?.resume();
    });
  }

  /** Opens `sink`'s file (through a stage's `openStream`): it is open when this resolves. */
  static async open(sink: OutputSink, capture: OutputCapture): Promise<OutputLog> {
    return new OutputLog(await sink.open(), capture, sink.name);
  }

  /** Reads `source` (a command's stdout or stderr pipe) to the end. */
  attach(source: Readable | null): void {
    if (!source) {
      this.#ended();
      return;
    }
    this.#source = source;
    source.on('data', (chunk: Buffer) => {
      this.capture.add(chunk);
      if (this.#error !== undefined || this.file.destroyed) return;
      const unthrottled = this.#unthrottled > 0;
      this.#unthrottled = Math.max(0, this.#unthrottled - chunk.length);
      if (!this.file.write(chunk) && !unthrottled) {
        source.pause();
        this.file.once('drain', () => source.resume());
      }
    });
    source.once('end', () => this.#ended());
    source.once('close', () => this.#ended());
    source.on('error', () => this.#ended()); // a broken pipe ends the stream like EOF
  }

  /**
   * Reads up to `bytes` more without waiting for the file to keep up (the
   * file stream buffers them): once the command has exited, what it left in
   * the pipe is taken at once, however slow the disk, before {@link close}
   * stops reading.
   */
  unthrottle(bytes: number): void {
    this.#unthrottled = bytes;
    if (this.#source?.isPaused()) this.#source.resume();
  }

  /**
   * Stops reading (a process outside the command's group may still hold
   * the pipe), then flushes and closes the file. Rejects with the first
   * write error, if there was one (a full disk as a `NoSpaceError` naming the file).
   */
  async close(): Promise<void> {
    this.#source?.destroy();
    if (!this.file.closed) {
      await new Promise<void>((resolve) => {
        this.file.once('close', resolve);
        if (!this.file.destroyed) this.file.end();
      });
    }
    if (this.#error !== undefined) throw noSpaceIn(this.#error, this.path) ?? this.#error;
  }
}
