/**
 * Rewriting a text by replacing segments of it, while remembering where each
 * replacement came from so offsets of the rewritten text can be mapped back to
 * the original.
 */

/**
 * Builds a rewritten copy of `src`. Replacements must be made in increasing,
 * non-overlapping order; the text between them is copied unchanged.
 */
export class SourceRewriter {
  private readonly out: string[] = [];
  // Replaced segments, in order: where they start in both texts and how long they are.
  private readonly normStarts: number[] = [];
  private readonly origStarts: number[] = [];
  private readonly normLens: number[] = [];
  private readonly origLens: number[] = [];
  private normLength = 0;
  private copyFrom = 0;

  constructor(private readonly src: string) {}

  /** Replaces `src[start, end)` with `replacement`, copying any text before it unchanged. */
  replace(start: number, end: number, replacement: string): void {
    if (start > this.copyFrom) {
      this.out.push(this.src.slice(this.copyFrom, start));
      this.normLength += start - this.copyFrom;
    }
    this.normStarts.push(this.normLength);
    this.origStarts.push(start);
    this.normLens.push(replacement.length);
    this.origLens.push(end - start);
    this.out.push(replacement);
    this.normLength += replacement.length;
    this.copyFrom = end;
  }

  /** The rewritten text, with the original copied through up to `end` after the last replacement. */
  finish(end: number): string {
    if (this.copyFrom < end) this.out.push(this.src.slice(this.copyFrom, end));
    return this.out.join('');
  }

  /** A function mapping an offset of the rewritten text to the corresponding offset of `src`. */
  offsetMapper(): (offset: number) => number {
    const { normStarts, origStarts, normLens, origLens } = this;
    // Callers mostly ask in increasing order, so start from the last answer.
    let hint = -1;
    return (offset: number): number => {
      const found = segmentAt(normStarts, offset, hint);
      hint = found;
      if (found === -1) return offset;
      const normStart = normStarts[found] as number;
      const origStart = origStarts[found] as number;
      const normEnd = normStart + (normLens[found] as number);
      if (offset < normEnd) return origStart;
      return origStart + (origLens[found] as number) + (offset - normEnd);
    };
  }
}

/**
 * Index of the last segment starting at or before `offset` in the ascending
 * `starts`, or -1 when there is none. Tries `hint` and the segment after it
 * before falling back to a binary search.
 */
function segmentAt(starts: readonly number[], offset: number, hint: number): number {
  if (isSegmentAt(starts, hint, offset)) return hint;
  if (isSegmentAt(starts, hint + 1, offset)) return hint + 1;
  return lastStartAtOrBefore(starts, offset);
}

/** True when segment `k` (-1: before the first) is the last one starting at or before `offset`. */
function isSegmentAt(starts: readonly number[], k: number, offset: number): boolean {
  if (k >= starts.length) return false;
  if (k >= 0 && (starts[k] as number) > offset) return false;
  return k + 1 >= starts.length || (starts[k + 1] as number) > offset;
}

/** Binary search: the last index whose start is at or before `offset`, or -1. */
function lastStartAtOrBefore(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((starts[mid] as number) <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
