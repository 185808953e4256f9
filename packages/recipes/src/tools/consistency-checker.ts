import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { looksLikeCanon, parseCanon } from './canon.js';
import { canonCharacters } from './canon-checker.js';
import { agree, normaliseValue, proseClaims } from './prose-claims.js';
import { proseCharacters } from './prose-names.js';
import { at } from './text.js';
import { pathListArg } from './tool-args.js';
import { readWorkspaceText } from './workspace-read.js';

/** The most conflicts `consistency_checker` gives. */
export const MAX_CONFLICTS = 100;
/** The most claims it lists for one conflict (`claimCount` counts them all). */
export const MAX_CONFLICT_CLAIMS = 20;

/** Where a file says something of a character (`{ value: 'green', at: 'canon.md:15' }`). */
export type AttributeClaim = { value: string; at: string; quote: string };

/** An attribute of a character the files disagree on, with every claim made of it. */
export type ConsistencyConflict = { subject: string; attribute: string; claims: AttributeClaim[]; claimCount: number; detail: string };

const CHECKED = new Set(['eyes', 'hair', 'age', 'handedness']);

/**
 * `consistency_checker { paths }` → `{ consistency_report: { conflicts,
 * checked, claims } }`: what the files say of each character's eyes, hair,
 * age and handedness (canon files by their `Eyes: green` facts, prose by
 * sentences like "Her brown eyes"), and each attribute they disagree on.
 * The characters come from the canon files among `paths`; without one, from
 * the prose (full names and speakers of dialogue).
 */
export const consistencyChecker: RecipeTool = {
  name: 'consistency_checker',
  description: "Finds the characters' attributes (eyes, hair, age, handedness) the given files contradict each other on. Args: paths. Gives consistency_report { conflicts, checked, claims }.",
  requiredArgs: ['paths'],
  outputs: ['consistency_report'],
  run(args, { workspace, signal }) {
    const files = pathListArg('consistency_checker', args, 'paths').map((p) => {
      signal.throwIfAborted();
      return readWorkspaceText(workspace, p);
    });
    const parsed = files.map((file) => ({ file, canon: parseCanon(file) }));
    const canons = parsed.filter((p) => looksLikeCanon(p.canon));
    const prose = parsed.filter((p) => !looksLikeCanon(p.canon)).map((p) => p.file);
    const characters = canons.length ? canonCharacters(canons.map((c) => c.canon)) : proseCharacters(prose);
    const claims: { subject: string; attribute: string; claim: AttributeClaim; normal: string }[] = [];
    for (const { canon } of canons) {
      for (const f of canon.facts) {
        const normal = f.value === null ? '' : normaliseValue(f.attribute, f.value);
        if (CHECKED.has(f.attribute) && normal) claims.push({ subject: f.subject, attribute: f.attribute, normal, claim: { value: f.value as string, at: f.source, quote: f.fact } });
      }
    }
    for (const file of prose) {
      signal.throwIfAborted();
      for (const c of proseClaims(file, characters)) claims.push({ subject: c.subject, attribute: c.attribute, normal: c.value, claim: { value: c.value, at: at(file.path, c.line), quote: c.quote } });
    }
    const groups = new Map<string, typeof claims>();
    for (const c of claims) {
      const key = `${c.subject}\u0000${c.attribute}`;
      const group = groups.get(key);
      if (group) group.push(c);
      else groups.set(key, [c]);
    }
    const conflicts: ConsistencyConflict[] = [];
    for (const group of groups.values()) {
      const first = group[0] as (typeof claims)[number];
      const distinct = [...new Set(group.map((c) => c.normal))];
      const clash = distinct.some((a) => distinct.some((b) => !agree(first.attribute, a, b)));
      if (!clash) continue;
      const values = distinct.map((v) => {
        const where = group.filter((c) => c.normal === v).map((c) => c.claim.at);
        return `${v} (${where.slice(0, 3).join(', ')}${where.length > 3 ? `, and ${where.length - 3} more` : ''})`;
      });
      conflicts.push({ subject: first.subject, attribute: first.attribute, claims: group.slice(0, MAX_CONFLICT_CLAIMS).map((c) => c.claim), claimCount: group.length, detail: `${first.subject}'s ${first.attribute}: ${values.join(' vs ')}` });
    }
    const report = { conflicts: conflicts.slice(0, MAX_CONFLICTS), checked: files.length, claims: claims.length };
    const found = conflicts.length ? `${conflicts.length} conflict${conflicts.length === 1 ? '' : 's'}: ${conflicts.slice(0, 5).map((c) => c.detail).join('; ')}` : 'no conflicts';
    return {
      data: { consistency_report: report } as unknown as Record<string, JsonValue>,
      summary: `${files.length} file${files.length === 1 ? '' : 's'} checked, ${claims.length} claims on eyes, hair, age and handedness of ${characters.length} characters; ${found}.`,
    };
  },
};
