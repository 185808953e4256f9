import type { Character } from './canon.js';
import { escapeRegExp, lineAt, lineStarts, sentencesOf, type Sentence } from './text.js';
import type { WorkspaceText } from './workspace-read.js';

/** The attributes prose is checked for. */
export type ClaimAttribute = 'eyes' | 'hair' | 'age' | 'handedness';

/** What a sentence of prose says about a character (`Her brown eyes` → Wren Adair, eyes, brown). */
export interface Claim {
  subject: string;
  attribute: ClaimAttribute;
  value: string;
  line: number;
  quote: string;
}

/** Who a position of a sentence refers to. */
export interface Referents {
  /** The nearest character named before `index` (of `sentence.raw`), or for a pronoun the nearest one of its gender, looking back into earlier sentences. */
  who(index: number, pronoun?: string): Character | undefined;
}

const COLOUR = '(?:grey|gray|green|brown|blue|black|hazel|amber|violet|golden|gold|silver|red|auburn|blonde|blond|fair|white|copper|chestnut|ginger|sandy|dark|pale|light|bright|deep)';
const COLOURS = `${COLOUR}(?:(?:-|\\s+|,\\s+|\\s+and\\s+)${COLOUR})*`;
const MODIFIERS = new Set(['dark', 'pale', 'light', 'bright', 'deep']);
const SAME_COLOUR: Record<string, string> = { gray: 'grey', blonde: 'blond', gold: 'golden' };
const NUMBERS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const NUMBER = `(?:\\d{1,3}|(?:${TENS.slice(2).join('|')})(?:-(?:${NUMBERS.slice(1, 10).join('|')}))?|${NUMBERS.slice(2).join('|')})`;

function genderOfPronoun(pronoun: string | undefined): Character['gender'] {
  const p = pronoun?.toLowerCase();
  return p === undefined ? null : /^(?:she|her|hers|herself)$/.test(p) ? 'female' : /^(?:he|him|his|himself)$/.test(p) ? 'male' : null;
}

/** A number written in digits or words (up to ninety-nine), or null. */
export function numberValue(text: string): number | null {
  const t = text.toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  const [tens, unit] = t.split('-');
  const small = NUMBERS.indexOf(t);
  if (small >= 0) return small;
  const ten = TENS.indexOf(tens ?? '');
  if (ten < 2) return null;
  const u = unit === undefined ? 0 : NUMBERS.indexOf(unit);
  return u >= 0 && u < 10 ? ten * 10 + u : null;
}

/** An attribute value in the form values are compared in: colour words (`brown`, `grey green`) or a number; '' when it says nothing checkable. */
export function normaliseValue(attribute: string, value: string): string {
  if (attribute === 'eyes' || attribute === 'hair') {
    const words = value.toLowerCase().match(new RegExp(COLOUR, 'g')) ?? [];
    return [...new Set(words.map((w) => SAME_COLOUR[w] ?? w).filter((w) => !MODIFIERS.has(w)))].join(' ');
  }
  if (attribute === 'age') return String(numberValue(value.trim()) ?? '');
  return value.toLowerCase().trim();
}

/** Whether two normalised values can both be true (colours share a word; other values are equal). */
export function agree(attribute: string, a: string, b: string): boolean {
  if (attribute === 'eyes' || attribute === 'hair') {
    const words = new Set(a.split(' '));
    return b.split(' ').some((w) => words.has(w));
  }
  return a === b;
}

/** A regular expression matching any alias of the characters, longest first (null when there are none). */
export function aliasPattern(characters: readonly Character[]): string | null {
  const aliases = [...new Set(characters.flatMap((c) => c.aliases))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return aliases.length ? `(?<![\\p{L}\\p{N}])(?:${aliases.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}])` : null;
}

/** Visits sentences in order with a resolver of who their names and pronouns refer to. */
export function walkSentences(sentences: readonly Sentence[], characters: readonly Character[], visit: (sentence: Sentence, refs: Referents) => void): void {
  const byAlias = new Map<string, Character>();
  for (const c of characters) for (const a of c.aliases) byAlias.set(a, c);
  const pattern = aliasPattern(characters);
  const names = pattern ? new RegExp(pattern, 'gu') : null;
  const history: Character[] = [];
  const fits = (c: Character, gender: Character['gender']) => gender === null || c.gender === null || c.gender === gender;
  for (const sentence of sentences) {
    const here = names ? [...sentence.raw.matchAll(names)].map((m) => ({ index: m.index, who: byAlias.get(m[0]) as Character })) : [];
    visit(sentence, {
      who(index, pronoun) {
        const gender = genderOfPronoun(pronoun);
        const before = here.filter((h) => h.index < index).map((h) => h.who);
        for (const list of [before, history]) {
          for (let i = list.length - 1; i >= 0; i--) if (fits(list[i] as Character, gender)) return list[i];
        }
        return undefined;
      },
    });
    history.push(...here.map((h) => h.who));
    if (history.length > 100) history.splice(0, history.length - 100);
  }
}

/** The attribute claims of a file's prose: eye and hair colours, ages, handedness, each given to the character it is about. */
export function proseClaims(file: WorkspaceText, characters: readonly Character[]): Claim[] {
  const names = aliasPattern(characters);
  if (!names) return [];
  const byAlias = new Map<string, Character>();
  for (const c of characters) for (const a of c.aliases) byAlias.set(a, c);
  const possessor = `(?:\\b([Hh]er|[Hh]is)|(${names})(?:'s|’s))`;
  const patterns: { re: RegExp; attribute: (m: RegExpExecArray) => ClaimAttribute; value: (m: RegExpExecArray) => string }[] = [
    { re: new RegExp(`${possessor}\\s+(?:[a-z]+,?\\s+){0,2}?(${COLOURS})\\s+(eyes|hair)\\b`, 'gu'), attribute: (m) => (m[4]?.toLowerCase() === 'hair' ? 'hair' : 'eyes'), value: (m) => m[3] as string },
    { re: new RegExp(`${possessor}\\s+(eyes|hair)\\s+(?:were|was|are|is|looked|seemed|had\\s+gone|shone)\\s+(?:an?\\s+|very\\s+|so\\s+)?(${COLOURS})\\b`, 'gu'), attribute: (m) => (m[3]?.toLowerCase() === 'hair' ? 'hair' : 'eyes'), value: (m) => m[4] as string },
    { re: new RegExp(`\\b([Ss]he|[Hh]e)()\\s+(?:was|is|had\\s+just\\s+turned|turned)\\s+(${NUMBER})(?:\\s+years?\\s+old)?(?=\\s*(?:$|[,.;:!?—–]|and\\b|but\\b|when\\b|then\\b))`, 'gu'), attribute: () => 'age', value: (m) => m[3] as string },
    { re: new RegExp(`()(${names})\\s+(?:was|is|had\\s+just\\s+turned|turned)\\s+(${NUMBER})(?:\\s+years?\\s+old)?(?=\\s*(?:$|[,.;:!?—–]|and\\b|but\\b|when\\b|then\\b))`, 'gu'), attribute: () => 'age', value: (m) => m[3] as string },
    { re: /()()\b([Ll]eft|[Rr]ight)-handed\b/gu, attribute: () => 'handedness', value: (m) => (m[3] as string).toLowerCase() },
  ];
  const starts = lineStarts(file.text);
  const claims: Claim[] = [];
  walkSentences(sentencesOf(file.text, file.lines), characters, (sentence, refs) => {
    for (const { re, attribute, value } of patterns) {
      for (const m of sentence.raw.matchAll(re)) {
        const named = m[2] ? byAlias.get(m[2]) : undefined;
        const who = named ?? refs.who(m.index, m[1] || undefined);
        const attr = attribute(m);
        const normal = normaliseValue(attr, value(m));
        if (!who || normal === '') continue;
        claims.push({ subject: who.name, attribute: attr, value: normal, line: lineAt(starts, sentence.start + m.index), quote: sentence.text });
      }
    }
  });
  return claims.sort((a, b) => a.line - b.line);
}
