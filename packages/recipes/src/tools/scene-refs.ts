import { headingText, isHeading, wordsOf } from './text.js';

/** What a task description or a `scene` argument asks for: scene numbers (`2`, `1.2`), paths, and words (names, titles). */
export interface SceneQuery {
  numbers: string[];
  paths: string[];
  words: string[];
}

/** The most numbers, paths and words a query keeps of each kind. */
export const MAX_QUERY_TERMS = 30;

/** Words of a task that name no scene: instructions, articles, the words of the trade. */
const STOP = new Set(
  ('a an the and or but of in on at to for from with by into onto about as is are was were be been this that these those it its ' +
    'draft write rewrite revise review check fix edit improve polish make add new next please scene scenes chapter chapters ' +
    'pacing prose consistency continuity canon outline file files where when what who which how why do does not all any some ' +
    'her his their she he they them our we you your my me i up out over under so then than there here story book').split(' '),
);

/** `02` → `2`, `1.02` → `1.2`. */
export function normaliseNumber(id: string): string {
  return id.split('.').map((n) => String(Number(n))).join('.');
}

/** Reads a task description or a `scene` argument. */
export function parseSceneQuery(text: string): SceneQuery {
  const numbers = [...text.matchAll(/\bscene[\s_-]*(\d+(?:\.\d+)*)(?![\d.]*\w)/gi)].map((m) => normaliseNumber(m[1] as string));
  const bare = /^\s*(\d+(?:\.\d+)*)\s*$/.exec(text);
  if (bare) numbers.push(normaliseNumber(bare[1] as string));
  const paths = [...text.matchAll(/[\w./-]+\.(?:md|markdown|txt)\b/gi)].map((m) => m[0].replace(/^\.\//, ''));
  const words = wordsOf(text.replace(/[\w./-]+\.(?:md|markdown|txt)\b/gi, ' '))
    .map((w) => w.toLowerCase())
    .filter((w) => w.length >= 3 && !STOP.has(w) && !/^\d/.test(w));
  return { numbers: [...new Set(numbers)].slice(0, MAX_QUERY_TERMS), paths: [...new Set(paths)].slice(0, MAX_QUERY_TERMS), words: [...new Set(words)].slice(0, MAX_QUERY_TERMS) };
}

/** The number a file name gives a scene (`scenes/scene-02.md` → `2`, `ch1-scene2.md` → `1.2`), or null. */
export function fileSceneNumber(path: string): string | null {
  const base = path.split('/').pop() ?? path;
  const digits = base.replace(/\.[^.]*$/, '').match(/\d+/g);
  return digits ? digits.map((d) => String(Number(d))).join('.') : null;
}

/** The number a scene's first heading gives it (`# Scene 1.2: The Weighhouse` → `1.2`), or null. */
export function headingSceneNumber(lines: readonly string[]): string | null {
  const first = lines.find((l) => isHeading(l));
  const m = first ? /\bscene\s+(\d+(?:\.\d+)*)/i.exec(headingText(first)) : null;
  return m ? normaliseNumber(m[1] as string) : null;
}

/** A regular expression that finds a scene number written in text (`scene 2`, `scene-02`, not `scene 2.1`). */
export function sceneNumberPattern(id: string): RegExp {
  const parts = id.split('.').map((n) => `0*${n}`).join('\\.');
  return new RegExp(`\\bscene[\\s_-]*${parts}(?![\\d]|\\.\\d)`, 'i');
}
