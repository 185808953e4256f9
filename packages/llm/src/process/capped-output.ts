/**
 * Collects a stream's bytes up to a limit; what comes after is dropped and
 * counted, so a chatty process cannot exhaust memory.
 */
export class CappedOutput {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  /** @param limit - most bytes kept */
  constructor(readonly limit: number) {}

  /** Adds a chunk; returns the part that was kept (empty once the limit is reached). */
  push(chunk: Buffer): Buffer {
    const room = Math.max(0, this.limit - this.#kept);
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#dropped += chunk.length - kept.length;
    if (kept.length > 0) {
      this.#chunks.push(kept);
      this.#kept += kept.length;
    }
    return kept;
  }

  /** Whether anything was dropped. */
  get truncated(): boolean {
    return this.#dropped > 0;
  }

  /** Bytes dropped past the limit. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The kept bytes as UTF-8 text. */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
