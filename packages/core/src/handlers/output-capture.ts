import { truncateUtf8, utf8Prefix, utf8Suffix } from './utf8-bounds.js';

/** Something that is shown a stream's bytes in order. */
export interface OutputCapture {
  /** Takes the next chunk of the stream (the capture may keep a reference to it). */
  add(chunk: Buffer): void;
}

/**
 * Keeps the first `limit` bytes of a stream and counts the rest, so a
 * chatty command cannot exhaust memory.
 */
export class HeadCapture implements OutputCapture {
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #total = 0;
  #text: { text: string; cut: boolean } | undefined;

  /** @param limit - most bytes kept */
  constructor(readonly limit: number) {}

  add(chunk: Buffer): void {
    this.#total += chunk.length;
    this.#text = undefined;
    const room = this.limit - this.#kept;
    if (room <= 0) return;
    const kept = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.#chunks.push(kept);
    this.#kept += kept.length;
  }

  /** Bytes seen in all. */
  get total(): number {
    return this.#total;
  }

  /** Whether {@link text} is not the whole stream: bytes past the limit, or decoded text over it. */
  get truncated(): boolean {
    return this.#total > this.limit || this.#decode().cut;
  }

  /**
   * The kept bytes as UTF-8 text of at most `limit` bytes, cut on a
   * character boundary. Bytes that are not UTF-8 become U+FFFD (3 bytes
   * each), so binary output may keep fewer than `limit` of its bytes.
   */
  text(): string {
    return this.#decode().text;
  }

  #decode(): { text: string; cut: boolean } {
    if (this.#text) return this.#text;
    const kept = Buffer.concat(this.#chunks);
    const decoded = (this.#total > this.limit ? utf8Prefix(kept, this.limit) : kept).toString('utf8');
    const cut = Buffer.byteLength(decoded) > this.limit;
    this.#text = { text: cut ? truncateUtf8(decoded, this.limit) : decoded, cut };
    return this.#text;
  }
}

/** Keeps the last `limit` bytes of a stream in a fixed ring buffer. */
export class TailCapture implements OutputCapture {
  readonly #ring: Buffer;
  #end = 0;
  #total = 0;

  /** @param limit - most bytes kept */
  constructor(readonly limit: number) {
    this.#ring = Buffer.alloc(limit);
  }

  add(chunk: Buffer): void {
    this.#total += chunk.length;
    if (this.limit === 0) return;
    const bytes = chunk.length > this.limit ? chunk.subarray(chunk.length - this.limit) : chunk;
    const first = Math.min(bytes.length, this.limit - this.#end);
    bytes.copy(this.#ring, this.#end, 0, first);
    bytes.copy(this.#ring, 0, first);
    this.#end = (this.#end + bytes.length) % this.limit;
  }

  /** Bytes seen in all. */
  get total(): number {
    return this.#total;
  }

  /** The last bytes as UTF-8 text; when earlier bytes were dropped, starting on a character boundary. */
  text(): string {
    if (this.#total <= this.limit) return this.#ring.subarray(0, this.#total).toString('utf8');
    const tail = Buffer.concat([this.#ring.subarray(this.#end), this.#ring.subarray(0, this.#end)]);
    return utf8Suffix(tail).toString('utf8');
  }
}
