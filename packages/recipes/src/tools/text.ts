/** A run of consecutive non-blank lines of a Markdown file (a heading is a block of its own). */
export interface Block {
  /** First and last line, 1-based. */
  from: number;
  to: number;
  lines: string[];
  /** `list`: every line a list item or its continuation; `dialogue`: it has a quotation; else `narration`. */
  kind: 'heading' | 'list' | 'dialogue' | 'narration';
}

/** A sentence of a file's prose, with the line it starts on and its offset in the file's text. */
export interface Sentence {
  /** Whitespace collapsed, a list marker dropped. */
  text: string;
  /** As in the file, from `start`. */
  raw: string;
  line: number;
  start: number;
}

const HEADING = /^#{1,6}\s/;
/** A list item: `- `, `* `, `+ `, `1. `, `1) `. */
export const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;
const QUOTE = /["“”]/;
const WORD = /[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu;

/** The words of a text (letters and digits, with inner apostrophes and hyphens). */
export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Whether a line is a Markdown heading. */
export function isHeading(line: string): boolean {
  return HEADING.test(line);
}

/** The text of a heading line without its `#` marks. */
export function headingText(line: string): string {
  return line.replace(/^#{1,6}\s+/, '').replace(/\s+#+\s*$/, '').trim();
}

/** A file's blocks, in order. */
export function blocksOf(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let current: string[] = [];
  let from = 0;
  const flush = (to: number) => {
    if (current.length === 0) return;
    const list = LIST_ITEM.test(current[0] ?? '') && current.every((l) => LIST_ITEM.test(l) || /^\s/.test(l));
    const kind = list ? 'list' : current.some((l) => QUOTE.test(l)) ? 'dialogue' : 'narration';
    blocks.push({ from, to, lines: current, kind });
    current = [];
  };
  lines.forEach((line, i) => {
    if (line.trim() === '') return flush(i);
    if (isHeading(line)) {
      flush(i);
      blocks.push({ from: i + 1, to: i + 1, lines: [line], kind: 'heading' });
      return;
    }
    if (current.length === 0) from = i + 1;
    current.push(line);
  });
  flush(lines.length);
  return blocks;
}

/** Offsets at which each line starts (`starts[0]` is line 1). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The 1-based line of an offset. */
export function lineAt(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo + 1;
}

const SENTENCE_END = /[.!?…]+["”’)\]*_]*(?=\s|$)/g;

/** The sentences of a file's prose blocks (headings skipped; a sentence does not cross a blank line). */
export function sentencesOf(text: string, lines: readonly string[]): Sentence[] {
  const starts = lineStarts(text);
  const sentences: Sentence[] = [];
  for (const block of blocksOf(lines)) {
    if (block.kind === 'heading') continue;
    const begin = starts[block.from - 1] ?? 0;
    const chunk = block.lines.join('\n');
    let last = 0;
    const push = (end: number) => {
      const raw = chunk.slice(last, end);
      const lead = raw.length - raw.trimStart().length;
      const body = raw.trim().replace(/^(?:[-*+]|\d+[.)])\s+/, '');
      if (/[\p{L}\p{N}]/u.test(body)) sentences.push({ text: body.replace(/\s+/g, ' '), raw: raw.trim(), start: begin + last + lead, line: lineAt(starts, begin + last + lead) });
      last = end;
    };
    for (const m of chunk.matchAll(SENTENCE_END)) push(m.index + m[0].length);
    push(chunk.length);
  }
  return sentences;
}

/** `path:line`. */
export function at(path: string, line: number): string {
  return `${path}:${line}`;
}

/** A line's text for a result: whitespace collapsed, at most `max` characters. */
export function excerpt(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Regular-expression text matching `text` literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
