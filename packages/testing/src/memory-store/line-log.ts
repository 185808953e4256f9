/** The complete lines of a {@link LineLog}, and whether a partial one followed them. */
export interface LinesRead {
  lines: string[];
  /** True when a simulated crash left a partial last line (it is not in `lines`). */
  torn: boolean;
}

/**
 * An append-only list of lines kept in memory, the counterpart of a `.jsonl`
 * file: lines are stored as given (no copy per call), and a simulated crash
 * can leave a partial, unterminated last line that readers drop and the next
 * append cuts off, as the file store does.
 */
export class LineLog {
  private readonly lines: string[] = [];
  private tail = '';

  /** Appends one complete line, first cutting off a torn tail. */
  append(line: string): void {
    this.tail = '';
    this.lines.push(line);
  }

  /** Appends complete lines, first cutting off a torn tail. */
  appendAll(lines: readonly string[]): void {
    this.tail = '';
    for (const line of lines) this.lines.push(line);
  }

  /**
   * Writes raw text the way a process killed mid-write leaves it: what ends
   * in a newline becomes complete lines (damaged ones, if the text is not a
   * record), the rest is a torn tail.
   */
  tear(text: string): void {
    const parts = (this.tail + text).split('\n');
    this.tail = parts.pop() ?? '';
    for (const part of parts) this.lines.push(part);
  }

  /** A copy of the complete lines, and whether a torn tail follows. */
  read(): LinesRead {
    return { lines: this.lines.slice(), torn: this.tail !== '' };
  }
}
