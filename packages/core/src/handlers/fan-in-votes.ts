import type { JsonValue } from '../engine/outcome.js';

/** The fan-in attribute naming the context keys that hold votes (an orchestra extension). */
export const FAN_IN_VOTES_ATTR = 'fan_in.votes';

/** A name as votes are compared: lower case, runs of spaces, `-` and `_` as one `_`. */
function normal(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** Every candidate `text` names (as a whole word, whatever its case and separators), in candidate order. */
function named(text: string, candidates: readonly string[]): string[] {
  const words = `_${normal(text.replace(/[^\p{L}\p{N}\s_-]+/gu, ' '))}_`;
  return candidates.filter((c) => words.includes(`_${normal(c)}_`));
}

/**
 * The candidate a vote names: the one on its last `VOTE: <id>` line (case,
 * spaces, `-` and `_` in the id do not matter); without such a line, the one
 * candidate the whole text names. `null` when it names none or several.
 */
export function readVote(text: string, candidates: readonly string[]): string | null {
  const lines = [...text.matchAll(/^[^\S\n]*\**vote\**[^\S\n]*:(.*)$/gim)];
  const last = lines.at(-1);
  const found = named(last ? (last[1] as string) : text, candidates);
  return found.length === 1 ? (found[0] as string) : null;
}

/** The votes counted: each voter's choice, and the votes of each eligible candidate. */
export interface VoteCount {
  /** Context key of each vote → the candidate it names, or `null` (no vote, or none or several named). */
  votes: Record<string, string | null>;
  /** Eligible candidate → votes for it (votes for other candidates are recorded but not counted). */
  tally: Record<string, number>;
  /** Votes that counted. */
  valid: number;
}

/**
 * Reads the votes under `keys` of `context` among all `candidates` (the
 * branch ids) and counts those for the `eligible` ones (branches with an
 * answer).
 */
export function countVotes(keys: readonly string[], context: Readonly<Record<string, JsonValue | undefined>>, candidates: readonly string[], eligible: readonly string[]): VoteCount {
  const votes: Record<string, string | null> = {};
  const tally: Record<string, number> = Object.fromEntries(eligible.map((c) => [c, 0]));
  let valid = 0;
  for (const key of keys) {
    const value = context[key];
    const choice = typeof value === 'string' ? readVote(value, candidates) : null;
    votes[key] = choice;
    if (choice !== null && Object.hasOwn(tally, choice)) {
      tally[choice] = (tally[choice] as number) + 1;
      valid += 1;
    }
  }
  return { votes, tally, valid };
}

/** The context keys of a `fan_in.votes` value: comma-separated, blanks ignored. */
export function voteKeys(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}
