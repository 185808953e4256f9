import type { SourceLocation } from '../diagnostics/diagnostic.js';

/** Turns offsets in a text into 1-based line and column numbers. */
export class LineIndex {
  private readonly starts: number[];
  /** Line (0-based) of the last answer: lookups mostly move forward a little. */
  private hint = 0;

  constructor(private readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.starts = starts;
  }

  /** Number of lines in the text (a trailing newline opens one more, empty line). */
  get lineCount(): number {
    return this.starts.length;
  }

  /** Length of a 1-based line, without its line break. */
  lineLength(line: number): number {
    const start = this.starts[line - 1];
    if (start === undefined) return 0;
    const next = this.starts[line];
    let end = next === undefined ? this.text.length : next - 1;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end -= 1;
    return end - start;
  }

  /** The 1-based location of a 0-based offset, clamped into the text. */
  locate(offset: number, file?: string): SourceLocation {
    const at = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.starts;
    let lo = this.hint;
    if ((starts[lo] as number) <= at && (lo + 1 >= starts.length || (starts[lo + 1] as number) > at)) {
      // same line as last time
    } else if (lo + 2 < starts.length && (starts[lo + 1] as number) <= at && (starts[lo + 2] as number) > at) {
      lo += 1;
    } else {
      lo = 0;
      let hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((starts[mid] as number) <= at) lo = mid;
        else hi = mid - 1;
      }
    }
    this.hint = lo;
    const line = lo + 1;
    const column = at - (this.starts[lo] as number) + 1;
    // One literal with every field: a field added later costs a graph of 100,000 nodes some 30 MB of property arrays.
    return file === undefined ? { line, column } : { line, column, file };
  }
}
