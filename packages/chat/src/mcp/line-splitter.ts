/** The longest line `orchestra mcp` reads (4 MiB): longer ones are answered with an error and skipped. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

/** What a chunk of input held: a whole line, or a line that went over the limit (its bytes are dropped). */
export type LinePiece = { line: string } | { overlong: number };

/**
 * Cuts a byte stream into newline-delimited lines without ever holding more
 * than `maxBytes` of one line: a line that grows past the limit is reported
 * once (`overlong`, with the limit) and its remaining bytes, up to the next
 * newline, are dropped, so the line after it is read as usual. A `\r`
 * before the newline is removed. Lines are decoded as UTF-8.
 */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(readonly maxBytes: number = MAX_LINE_BYTES) {}

  /** Takes the next chunk; returns what it completed, in order. */
  push(chunk: Buffer): LinePiece[] {
    const pieces: LinePiece[] = [];
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(from, end);
      if (this.skipping) {
        if (newline !== -1) this.skipping = false;
      } else if (this.size + piece.length > this.maxBytes) {
        pieces.push({ overlong: this.maxBytes });
        this.reset();
        this.skipping = newline === -1;
      } else if (newline === -1) {
        if (piece.length > 0) this.parts.push(piece);
        this.size += piece.length;
      } else {
        const line = (this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece])).toString('utf8');
        pieces.push({ line: line.endsWith('\r') ? line.slice(0, -1) : line });
        this.reset();
      }
      if (newline === -1) return pieces;
      from = newline + 1;
    }
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}
