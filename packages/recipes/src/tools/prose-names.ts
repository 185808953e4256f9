import { withAliases, type Character } from './canon.js';
import { escapeRegExp } from './text.js';
import type { WorkspaceText } from './workspace-read.js';

const SAID = 'said|asked|whispered|breathed|replied|called|shouted|muttered|murmured|answered|cried|snapped|added';
/** The most names it considers (full names and speakers). */
const MAX_NAMES = 200;
const NOT_NAMES = new Set(['She', 'He', 'They', 'It', 'The', 'And', 'But', 'Then', 'When', 'Not', 'Just', 'This', 'That', 'What', 'Who', 'Her', 'His', 'One', 'Someone', 'Nobody', 'Everyone']);

/**
 * The characters of prose with no canon at hand: full names (`Wren Adair`,
 * not after "the") one of whose parts also stands alone, and speakers of
 * dialogue (`Wren said`), each with a gender when pronouns just after its
 * name say so; full names without one are dropped (more likely places).
 */
export function proseCharacters(files: readonly WorkspaceText[]): Character[] {
  const text = files.map((f) => f.text).join('\n\n');
  const people = new Map<string, { name: string; speaker: boolean }>();
  for (const m of text.matchAll(new RegExp(`(?<!\\b(?:the|The|a|A|an|An)\\s)(?<![A-Z][a-z]+\\s)\\b([A-Z][a-z]{2,})\\s+(?:${SAID})\\b|\\b(?:${SAID})\\s+([A-Z][a-z]{2,})\\b`, 'g'))) {
    const name = (m[1] ?? m[2]) as string;
    if (!NOT_NAMES.has(name) && people.size < MAX_NAMES) people.set(name, { name, speaker: true });
  }
  const lone = new Map<string, boolean>();
  const alone = (part: string) => lone.get(part) ?? lone.set(part, new RegExp(`(?<![A-Z][a-z]+ )\\b${part}\\b(?! [A-Z])`).test(text)).get(part) === true;
  for (const m of text.matchAll(/\b([A-Z][a-z]{2,}) ([A-Z][a-z]{2,})\b/g)) {
    const [full, first, last] = m as unknown as [string, string, string];
    if (people.size >= MAX_NAMES || lone.size >= 4 * MAX_NAMES) break;
    if (people.has(full)) continue;
    if (NOT_NAMES.has(first) || /\b(?:the|a|an|of|The|A|An|Of)\s+$/.test(text.slice(Math.max(0, m.index - 6), m.index))) continue;
    if (!alone(first) && !alone(last)) continue;
    const speaker = [full, first, last].some((n) => people.get(n)?.speaker === true);
    for (const part of [first, last]) people.delete(part);
    people.set(full, { name: full, speaker });
  }
  const found = [...people.values()].map(({ name, speaker }) => {
    let female = 0;
    let male = 0;
    for (const part of name.split(' ')) {
      for (const m of text.matchAll(new RegExp(`\\b${escapeRegExp(part)}\\b((?:\\W+\\w+){0,8})`, 'g'))) {
        female += (m[1] ?? '').match(/\b(?:she|her|herself)\b/gi)?.length ?? 0;
        male += (m[1] ?? '').match(/\b(?:he|him|his|himself)\b/gi)?.length ?? 0;
      }
    }
    const gender: Character['gender'] = female > male ? 'female' : male > female ? 'male' : null;
    return { name, gender, keep: speaker || gender !== null };
  });
  return withAliases(found.filter((p) => p.keep).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)));
}
