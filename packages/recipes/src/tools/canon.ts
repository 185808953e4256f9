import { at, blocksOf, headingText, LIST_ITEM, sentencesOf, wordsOf } from './text.js';
import type { WorkspaceText } from './workspace-read.js';

/** One fixed fact of a canon file: an attribute (`eyes: green`) or a note (the sentence itself). */
export interface CanonFact {
  /** The character, place or section it is about. */
  subject: string;
  /** `eyes`, `hair`, `age`, `handedness`, another `Key:` of the canon, or `note`. */
  attribute: string;
  /** `eyes: green`, or the sentence for a note. */
  fact: string;
  /** The attribute's value; null for a note. */
  value: string | null;
  /** `canon.md:15`. */
  source: string;
}

/** A person of the story, with the names the prose calls them by. */
export interface Character {
  name: string;
  aliases: string[];
  gender: 'female' | 'male' | null;
}

/** "X learns that ... in scene N": before that scene, X does not know it. */
export interface KnowledgeRule {
  subject: string;
  /** What is learnt (`he is alive`). */
  what: string;
  /** Its content words, all of which a sentence must contain (`alive`). */
  keywords: string[];
  /** The scene or chapter it is learnt in (`3.1`). */
  scene: string;
  source: string;
}

/** What a canon file fixes. */
export interface Canon {
  facts: CanonFact[];
  characters: Character[];
  knowledge: KnowledgeRule[];
}

const NOT_PEOPLE = /place|location|setting|world|timeline|object|item|glossary|rule/i;
const FEMALE = /\b(?:she|her|hers|herself)\b/gi;
const MALE = /\b(?:he|him|his|himself)\b/gi;
const KIN = /^[\p{L}'’ ]+['’]s (father|husband|brother|son|uncle|grandfather|mother|wife|sister|daughter|aunt|grandmother)\b/iu;
const TITLES = new Set(['Master', 'Mistress', 'Mr', 'Mrs', 'Miss', 'Ms', 'Dr', 'Lady', 'Lord', 'Sir', 'Old', 'Young', 'The']);
/** Words that say nothing about what is known. */
const FILLER = new Set(['that', 'the', 'a', 'an', 'is', 'was', 'are', 'were', 'be', 'been', 'has', 'had', 'he', 'she', 'they', 'it', 'him', 'her', 'his', 'their', 'of', 'to', 'in', 'on', 'and', 'still', 'not']);

/** The numeric parts of a scene or chapter number (`1.2` → [1, 2]). */
export function sceneNumber(id: string): number[] {
  return id.split('.').map(Number);
}

/** Whether scene `a` comes before scene `b` for certain (`1.2` before `3.1` and before chapter `3`; `3.1` not before `3`). */
export function sceneBefore(a: string, b: string): boolean {
  const x = sceneNumber(a);
  const y = sceneNumber(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0);
  return false;
}

function attributeOf(sentence: string): { attribute: string; value: string } | null {
  const age = /\bage[:\s]+(\d{1,3})\b/i.exec(sentence);
  if (age) return { attribute: 'age', value: age[1] as string };
  const hand = /\b(left|right)-handed\b/i.exec(sentence);
  if (hand) return { attribute: 'handedness', value: (hand[1] as string).toLowerCase() };
  const keyed = /^([A-Z][A-Za-z]*(?: [a-z]+){0,2})\s*:\s+(.+?)\.?$/.exec(sentence);
  if (keyed) {
    const key = (keyed[1] as string).toLowerCase();
    const attribute = /^(?:eyes?|eye colou?r)$/.test(key) ? 'eyes' : /^hair(?: colou?r)?$/.test(key) ? 'hair' : key;
    return { attribute, value: (keyed[2] as string).trim() };
  }
  return null;
}

function genderOf(texts: readonly string[]): Character['gender'] {
  let female = 0;
  let male = 0;
  for (const text of texts) {
    female += text.match(FEMALE)?.length ?? 0;
    male += text.match(MALE)?.length ?? 0;
    const kin = KIN.exec(text)?.[1]?.toLowerCase();
    if (kin) (/father|husband|brother|son|uncle/.test(kin) ? (male += 3) : (female += 3));
  }
  return female > male ? 'female' : male > female ? 'male' : null;
}

/** The most characters the checks follow (the first ones named). */
export const MAX_CHARACTERS = 500;

/** Names with the parts that identify one person only (a shared surname is dropped); at most {@link MAX_CHARACTERS}. */
export function withAliases(all: readonly { name: string; gender: Character['gender'] }[]): Character[] {
  const people = all.slice(0, MAX_CHARACTERS);
  const parts = new Map<string, number>();
  const partsOf = (name: string) => wordsOf(name).filter((w) => /^\p{Lu}/u.test(w) && w.length >= 3 && !TITLES.has(w));
  for (const p of people) for (const w of new Set(partsOf(p.name))) parts.set(w, (parts.get(w) ?? 0) + 1);
  return people.map((p) => ({ name: p.name, gender: p.gender, aliases: [...new Set([p.name, ...partsOf(p.name).filter((w) => parts.get(w) === 1)])] }));
}

/**
 * Reads a canon file: `## Section` headings, a subject on a bold line of its
 * own (`**Wren Adair**`) or a `###` heading, its facts in list items or
 * paragraphs below (`- Eyes: green.`, `- Age 19.`), and list items that lead
 * with a bold name (`- **Corrow**: an island`). Subjects outside sections of
 * places, the world or the timeline are characters.
 */
export function parseCanon(file: WorkspaceText): Canon {
  const facts: CanonFact[] = [];
  const knowledge: KnowledgeRule[] = [];
  const people = new Map<string, string[]>();
  let section: string | null = null;
  let subject: string | null = null;
  for (const block of blocksOf(file.lines)) {
    const first = block.lines[0] ?? '';
    if (block.kind === 'heading') {
      const level = /^#+/.exec(first)?.[0].length ?? 1;
      if (level === 1) section = subject = null;
      else if (level === 2) [section, subject] = [headingText(first), null];
      else subject = headingText(first);
      if (level > 2 && subject && !NOT_PEOPLE.test(section ?? '')) people.set(subject, people.get(subject) ?? []);
      continue;
    }
    // Items: a list item with its continuation lines, or the whole paragraph.
    const items: { line: number; lines: string[] }[] = [];
    block.lines.forEach((line, i) => {
      const last = items[items.length - 1];
      if (!last || LIST_ITEM.test(line)) items.push({ line: block.from + i, lines: [line] });
      else last.lines.push(line);
    });
    for (const item of items) {
      let text = item.lines.join('\n');
      const bold = /^\s*(?:(?:[-*+]|\d+[.)])\s+)?(?:\*\*|__)(.+?)(?:\*\*|__)\s*:?\s*/.exec(text);
      let about = subject ?? section;
      if (bold && bold[0].length >= text.trimEnd().length) {
        subject = (bold[1] as string).replace(/:$/, '').trim();
        if (!NOT_PEOPLE.test(section ?? '')) people.set(subject, people.get(subject) ?? []);
        continue;
      }
      if (bold) {
        about = (bold[1] as string).replace(/:$/, '').trim();
        text = `${' '.repeat(bold[0].length)}${text.slice(bold[0].length)}`;
      }
      if (!about) continue;
      for (const sentence of sentencesOf(text, text.split('\n'))) {
        const source = at(file.path, item.line + sentence.line - 1);
        const said = sentence.text.replace(/\*\*|__/g, '');
        const attr = attributeOf(said);
        facts.push(attr ? { subject: about, attribute: attr.attribute, fact: `${attr.attribute}: ${attr.value}`, value: attr.value, source } : { subject: about, attribute: 'note', fact: said, value: null, source });
        people.get(about)?.push(said);
        const learns = /\blearns?\s+(?:that\s+)?(.+?)\s+(?:in|by|during|at)\s+(?:(?:chapter\s+\d+\s*\(\s*)?scene\s+(\d+(?:\.\d+)*)|chapter\s+(\d+))/i.exec(said);
        if (learns && people.has(about)) knowledge.push({ subject: about, what: learns[1] as string, keywords: [], scene: (learns[2] ?? learns[3]) as string, source });
      }
    }
  }
  const characters = withAliases([...people].map(([name, texts]) => ({ name, gender: genderOf(texts) })));
  const names = new Set(characters.flatMap((c) => c.aliases.flatMap((a) => wordsOf(a.toLowerCase()))));
  for (const rule of knowledge) rule.keywords = wordsOf(rule.what.toLowerCase()).filter((w) => !FILLER.has(w) && !names.has(w));
  return { facts, characters, knowledge: knowledge.filter((r) => r.keywords.length > 0) };
}

/** Whether a file reads as a canon: it fixes at least one attribute of a subject. */
export function looksLikeCanon(canon: Canon): boolean {
  return canon.facts.some((f) => f.attribute !== 'note');
}
