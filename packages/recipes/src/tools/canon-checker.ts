import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { parseCanon, sceneBefore, withAliases, type Canon, type CanonFact, type Character } from './canon.js';
import { agree, aliasPattern, normaliseValue, proseClaims, walkSentences } from './prose-claims.js';
import { headingSceneNumber } from './scene-refs.js';
import { at, lineAt, lineStarts, sentencesOf } from './text.js';
import { pathListArg, stringArg } from './tool-args.js';
import { readWorkspaceText, type WorkspaceText } from './workspace-read.js';

/** The most facts `canon_checker` gives. */
export const MAX_FACTS = 300;
/** The most conflicts it gives. */
export const MAX_CANON_CONFLICTS = 100;

/** A sentence of a scene that contradicts the canon. */
export type CanonConflict = {
  subject: string;
  /** `eyes`, `hair`, `age`, `handedness` or `knowledge`. */
  attribute: string;
  /** `scenes/scene-02.md:17`. */
  scene: string;
  /** `canon.md:15`. */
  canon: string;
  detail: string;
  /** The scene's sentence. */
  quote: string;
};

/** The characters of several canon files, each name once (the first file's wins), with aliases unique across all. */
export function canonCharacters(canons: readonly Canon[]): Character[] {
  const seen = new Map<string, Character>();
  for (const c of canons.flatMap((x) => x.characters)) if (!seen.has(c.name)) seen.set(c.name, c);
  return withAliases([...seen.values()]);
}

/** `Wren Adair's eyes are brown here but green in the canon`. */
function contradiction(subject: string, attribute: string, here: string, canon: string): string {
  if (attribute === 'age') return `${subject} is ${here} here but ${canon} in the canon`;
  if (attribute === 'handedness') return `${subject} is ${here}-handed here but ${canon}-handed in the canon`;
  return `${subject}'s ${attribute} ${attribute === 'hair' ? 'is' : 'are'} ${here} here but ${canon} in the canon`;
}

/** The scene's sentences that contradict a fixed attribute (eyes, hair, age, handedness) of the canon. */
export function attributeConflicts(scene: WorkspaceText, facts: readonly CanonFact[], characters: readonly Character[]): CanonConflict[] {
  const conflicts: CanonConflict[] = [];
  for (const claim of proseClaims(scene, characters)) {
    const fact = facts.find((f) => f.subject === claim.subject && f.attribute === claim.attribute && f.value !== null && normaliseValue(f.attribute, f.value) !== '');
    if (!fact || agree(claim.attribute, normaliseValue(fact.attribute, fact.value as string), claim.value)) continue;
    conflicts.push({
      subject: claim.subject,
      attribute: claim.attribute,
      scene: at(scene.path, claim.line),
      canon: fact.source,
      detail: contradiction(claim.subject, claim.attribute, claim.value, fact.value as string),
      quote: claim.quote,
    });
  }
  return conflicts;
}

/** The scene's sentences in which a character knows what the canon says they learn only in a later scene. */
export function knowledgeConflicts(scene: WorkspaceText, canons: readonly Canon[], characters: readonly Character[]): CanonConflict[] {
  const sceneId = headingSceneNumber(scene.lines);
  const rules = sceneId ? canons.flatMap((c) => c.knowledge).filter((r) => sceneBefore(sceneId, r.scene)) : [];
  const names = aliasPattern(characters);
  if (!sceneId || rules.length === 0 || !names) return [];
  const byAlias = new Map(characters.flatMap((c) => c.aliases.map((a) => [a, c] as const)));
  const knower = new RegExp(`${names}|\\b(?:[Ss]he|[Hh]e)\\b`, 'gu');
  const starts = lineStarts(scene.text);
  const conflicts: CanonConflict[] = [];
  walkSentences(sentencesOf(scene.text, scene.lines), characters, (sentence, refs) => {
    const words = new Set(sentence.text.toLowerCase().match(/[\p{L}]+/gu) ?? []);
    for (const verb of sentence.raw.matchAll(/\b(?:knew|know|knows|known|knowing)\b/g)) {
      const before = sentence.raw.slice(0, verb.index);
      if (/\b(?:not|never)\s+(?:\w+\s+)?$|n['’]t\s+(?:\w+\s+)?$/.test(before)) continue;
      const last = [...before.matchAll(knower)].pop();
      const who = last ? (byAlias.get(last[0]) ?? refs.who(last.index, last[0])) : undefined;
      const rule = who && rules.find((r) => r.subject === who.name && r.keywords.every((k) => words.has(k)));
      if (!who || !rule || conflicts.some((c) => c.quote === sentence.text && c.canon === rule.source)) continue;
      conflicts.push({
        subject: who.name,
        attribute: 'knowledge',
        scene: at(scene.path, lineAt(starts, sentence.start + verb.index)),
        canon: rule.source,
        detail: `${who.name} knows that ${rule.what} here (scene ${sceneId}), but the canon has ${who.gender === 'female' ? 'her' : who.gender === 'male' ? 'him' : 'them'} learn it only in ${/\./.test(rule.scene) ? 'scene' : 'chapter'} ${rule.scene}`,
        quote: sentence.text,
      });
    }
  });
  return conflicts;
}

/**
 * `canon_checker { scene_path, canon_paths }` → `{ canon_context: { scene,
 * facts, conflicts } }`: the canon's facts (`{ subject, attribute, fact,
 * value, source }`, e.g. `eyes: green` at `canon.md:15`) and the scene's
 * sentences that contradict a fixed attribute of a character (eye or hair
 * colour, age, handedness) or show a character knowing what the canon says
 * they learn in a later scene (`{ subject, attribute, scene, canon, detail,
 * quote }`).
 */
export const canonChecker: RecipeTool = {
  name: 'canon_checker',
  description: "Extracts the canon's fixed facts and flags the scene's sentences that contradict them (eyes, hair, age, handedness, who knows what by which scene). Args: scene_path, canon_paths. Gives canon_context { scene, facts, conflicts }.",
  requiredArgs: ['scene_path', 'canon_paths'],
  outputs: ['canon_context'],
  run(args, { workspace, signal }) {
    const scene = readWorkspaceText(workspace, stringArg('canon_checker', args, 'scene_path'));
    const canonFiles = pathListArg('canon_checker', args, 'canon_paths').map((p) => {
      signal.throwIfAborted();
      return readWorkspaceText(workspace, p);
    });
    const canons = canonFiles.map(parseCanon);
    const facts = canons.flatMap((c) => c.facts);
    const characters = canonCharacters(canons);
    const conflicts = [...attributeConflicts(scene, facts, characters), ...knowledgeConflicts(scene, canons, characters)];
    conflicts.sort((a, b) => Number(a.scene.split(':').pop()) - Number(b.scene.split(':').pop()));
    const subjects = new Set(facts.map((f) => f.subject)).size;
    const found = conflicts.length
      ? `${scene.path} contradicts it ${conflicts.length === 1 ? 'once' : `${conflicts.length} times`}: ${conflicts.slice(0, 3).map((c) => `${c.detail} (${c.scene} vs ${c.canon})`).join('; ')}${conflicts.length > 3 ? '; …' : ''}`
      : `nothing in ${scene.path} contradicts the fixed facts it checks (eyes, hair, age, handedness, knowledge)`;
    const data = { canon_context: { scene: scene.path, facts: facts.slice(0, MAX_FACTS), conflicts: conflicts.slice(0, MAX_CANON_CONFLICTS) } } as unknown as Record<string, JsonValue>;
    return { data, summary: `${facts.length} facts on ${subjects} subjects from ${canonFiles.map((f) => f.path).join(', ')}; ${found}.` };
  },
};
