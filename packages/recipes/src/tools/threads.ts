import type { OutlineScene } from './outline.js';
import { escapeRegExp, isHeading } from './text.js';
import type { WorkspaceText } from './workspace-read.js';

/** A part of an outline threads are counted in: the premise, or one scene (its heading and beats). */
export interface OutlineEntry {
  /** The scene; null for the premise. */
  scene: OutlineScene | null;
  lines: { line: number; text: string }[];
}

/** A thread the outline returns to: a person, place or object named in two of its entries or more. */
export interface OutlineThread {
  name: string;
  /** Matches the thread in prose. */
  pattern: RegExp;
  /** The entries it is named in, in order. */
  entries: OutlineEntry[];
  /** The first line naming it (in a scene when it is named in one). */
  firstLine: number;
}

const DETS = new Set(['the', 'a', 'an', 'her', 'his', 'its', 'their', 'our', 'my', 'your', 'this', 'these', 'those', 'no', 'every', 'each']);
const STOP = new Set(
  ('with for from to of in on at by and or but that which who whom whose is was are were has have had been be not no as into onto under behind until before after though ' +
    'only where when than then it its they them he she him her his their there here what how why all any some one other others way end time thing things same first last rest side ' +
    'kind lot part place day night moment while very so too also just still even back up down out off over again who').split(' '),
);
const NOT_NAMES = new Set(['Scene', 'Scenes', 'Chapter', 'Chapters', 'The', 'A', 'An', 'And', 'But', 'Facts', 'Part']);
const POSSESSIVE = /^(.+?)['’]s$/;
const isWord = (t: string | undefined): t is string => t !== undefined && /^\p{L}/u.test(t);
const isCap = (t: string) => /^\p{Lu}/u.test(t);
const base = (t: string) => POSSESSIVE.exec(t)?.[1] ?? t;

/** Nouns named after a determiner or a possessive (`the water gates` → gates, modifier water). */
function nouns(text: string): { head: string; phrase: string }[] {
  const tokens = text.match(/\p{L}+(?:['’]\p{L}+)*|[^\s\p{L}]/gu) ?? [];
  const found: { head: string; phrase: string }[] = [];
  tokens.forEach((tok, i) => {
    if (!DETS.has(tok.toLowerCase()) && !(POSSESSIVE.test(tok) && tok.length > 3)) return;
    const [w1, w2] = [tokens[i + 1], tokens[i + 2]];
    if (!isWord(w1) || STOP.has(w1.toLowerCase())) return;
    if (POSSESSIVE.test(w1)) {
      if (!isCap(w1)) found.push({ head: base(w1).toLowerCase(), phrase: base(w1).toLowerCase() });
    } else if (isWord(w2) && !STOP.has(base(w2).toLowerCase()) && !isCap(w2)) {
      found.push({ head: base(w2).toLowerCase(), phrase: `${isCap(w1) ? w1 : w1.toLowerCase()} ${base(w2).toLowerCase()}` });
    } else if (!isCap(w1)) found.push({ head: w1.toLowerCase(), phrase: w1.toLowerCase() });
  });
  return found;
}

/** Names: capitalised words that occur inside a sentence somewhere in the outline (not only at its start). */
function properNames(entries: readonly OutlineEntry[]): Set<string> {
  const names = new Set<string>();
  for (const { text } of entries.flatMap((e) => e.lines)) {
    if (isHeading(text)) continue;
    for (const m of text.matchAll(/(?<=[\p{L},;]\s+)\p{Lu}\p{L}+/gu)) if (!NOT_NAMES.has(m[0])) names.add(base(m[0]));
  }
  return names;
}

/** The outline's entries: its premise (text before the first heading below the title) and its scenes. */
export function outlineEntries(file: WorkspaceText, scenes: readonly OutlineScene[]): OutlineEntry[] {
  const lineOf = (source: string) => Number(source.split(':').pop());
  const firstSection = file.lines.findIndex((l) => /^#{2,6}\s/.test(l));
  const premise = file.lines.slice(0, firstSection < 0 ? file.lines.length : firstSection).map((text, i) => ({ line: i + 1, text })).filter((l) => l.text.trim() && !isHeading(l.text));
  const entries: OutlineEntry[] = [{ scene: null, lines: premise }];
  for (const s of scenes) entries.push({ scene: s, lines: [{ line: lineOf(s.source), text: file.lines[lineOf(s.source) - 1] ?? s.title }, ...s.beats.map((b) => ({ line: lineOf(b.source), text: b.text }))] });
  return entries;
}

/** The threads of an outline: names and nouns named in two entries or more, in the order they are first named. */
export function outlineThreads(entries: readonly OutlineEntry[]): OutlineThread[] {
  const names = properNames(entries);
  type Seen = { phrases: Map<string, number>; entries: Set<OutlineEntry>; lines: number[]; proper: boolean };
  const seen = new Map<string, Seen>();
  const add = (key: string, phrase: string, entry: OutlineEntry, line: number, proper: boolean) => {
    const t: Seen = seen.get(key) ?? { phrases: new Map(), entries: new Set(), lines: [], proper };
    t.phrases.set(phrase, (t.phrases.get(phrase) ?? 0) + 1);
    t.entries.add(entry);
    t.lines.push(line + (entry.scene ? 0 : 1e9));
    seen.set(key, t);
  };
  for (const entry of entries) {
    for (const { line, text } of entry.lines) {
      for (const m of text.matchAll(/\p{Lu}\p{L}+(?:['’]s)?/gu)) if (names.has(base(m[0]))) add(base(m[0]), base(m[0]), entry, line, true);
      for (const n of nouns(text)) add(n.head, n.phrase, entry, line, false);
    }
  }
  const threads: OutlineThread[] = [];
  for (const [key, t] of seen) {
    if (t.entries.size < 2) continue;
    const phrase = [...t.phrases].sort((a, b) => b[1] - a[1] || a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? key;
    const stem = key.endsWith('s') && !key.endsWith('ss') ? key.slice(0, -1) : key;
    const pattern = t.proper ? new RegExp(`(?<![\\p{L}])${escapeRegExp(key)}(?![\\p{L}])`, 'u') : new RegExp(`(?<![\\p{L}])${escapeRegExp(stem)}(?:e?s)?(?:['’]s)?(?![\\p{L}])`, 'iu');
    const first = Math.min(...t.lines);
    threads.push({ name: phrase, pattern, entries: entries.filter((e) => t.entries.has(e)), firstLine: first >= 1e9 ? first - 1e9 : first });
  }
  return threads.sort((a, b) => a.firstLine - b.firstLine || (a.name < b.name ? -1 : 1));
}
