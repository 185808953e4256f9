import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { at, blocksOf, excerpt, isHeading, wordsOf } from './text.js';
import { optionalIntArg, stringArg } from './tool-args.js';
import { readWorkspaceText } from './workspace-read.js';

/** The fewest words a scene draft may have by default (`min_words`). */
export const MIN_SCENE_WORDS = 200;
/** The most problems `scene_draft_validator` gives. */
export const MAX_PROBLEMS = 50;

/** What is wrong with a draft: a kind, where (`path:line`, or the path), and what. */
export type DraftProblem = { kind: string; at: string; detail: string };

const PLACEHOLDER = /\b(?:TODO|TBD|FIXME|XXX|TK)\b|\[(?:insert|add|todo|tbd|placeholder)[^\]]*\]|\{\{[^}]*\}\}|lorem ipsum/i;
const CHATTER = /^(?:sure[,!]|certainly[,!]|here(?:'s| is) (?:the|your|a) (?:scene|draft|revised)|as an ai\b|i hope this|let me know if|note:|\*\*note)/i;
const ENDS_SENTENCE = /[.!?…"”’)*_—–-]\s*$/;

/**
 * `scene_draft_validator { scene_path, min_words?, max_words? }` →
 * `{ validation: { pass, words, paragraphs, dialogueParagraphs, problems } }`:
 * a scene draft passes when it has a heading, at least `min_words` words
 * (200 by default) and no more than `max_words` (if given), and none of:
 * placeholders (TODO, [insert ...], {{...}}), a model's chatter ("Here is the
 * scene", "As an AI", "Let me know if"), a code fence, a paragraph with
 * unbalanced quotation marks, a paragraph repeated word for word, or a last
 * line that stops mid-sentence. Each problem: `{ kind, at, detail }`.
 */
export const sceneDraftValidator: RecipeTool = {
  name: 'scene_draft_validator',
  description: 'Checks a scene draft mechanically: a title, its length, placeholders, model chatter, code fences, unbalanced quotes, repeated paragraphs, a truncated ending. Args: scene_path, min_words (optional, default 200), max_words (optional). Gives validation { pass, words, problems }.',
  requiredArgs: ['scene_path'],
  outputs: ['validation'],
  run(args, { workspace }) {
    const file = readWorkspaceText(workspace, stringArg('scene_draft_validator', args, 'scene_path'));
    const minWords = optionalIntArg('scene_draft_validator', args, 'min_words', 0, 1_000_000) ?? MIN_SCENE_WORDS;
    const maxWords = optionalIntArg('scene_draft_validator', args, 'max_words', 1, 10_000_000);
    const problems: DraftProblem[] = [];
    const problem = (kind: string, line: number | null, detail: string) => problems.push({ kind, at: line === null ? file.path : at(file.path, line), detail });
    const blocks = blocksOf(file.lines).filter((b) => b.kind !== 'heading');
    const words = blocks.reduce((n, b) => n + wordsOf(b.lines.join(' ')).length, 0);

    if (file.text.trim() === '') problem('empty', null, 'the file is empty');
    else if (!file.lines.some(isHeading)) problem('no_title', null, 'no heading names the scene (e.g. "# Scene 1.2: The Weighhouse")');
    if (words < minWords) problem('too_short', null, `${words} words; at least ${minWords} expected`);
    if (maxWords !== undefined && words > maxWords) problem('too_long', null, `${words} words; at most ${maxWords} expected`);
    file.lines.forEach((line, i) => {
      if (PLACEHOLDER.test(line)) problem('placeholder', i + 1, `a placeholder is left: "${excerpt(line, 80)}"`);
      if (/^\s*(?:```|~~~)/.test(line)) problem('code_fence', i + 1, 'a code fence: a model wrapped the scene, or left markup in it');
      if (CHATTER.test(line.trim())) problem('chatter', i + 1, `a line addressed to the reader of a chat, not of the story: "${excerpt(line, 80)}"`);
    });
    const seen = new Map<string, number>();
    blocks.forEach((b, i) => {
      const text = b.lines.join(' ');
      const straight = text.match(/"/g)?.length ?? 0;
      const open = text.match(/“/g)?.length ?? 0;
      const close = text.match(/”/g)?.length ?? 0;
      const continued = /^\s*["“]/.test(blocks[i + 1]?.lines[0] ?? ''); // a speech running on into the next paragraph
      if ((straight % 2 === 1 || open !== close) && !continued) problem('unbalanced_quotes', b.from, `a quotation mark is not closed in the paragraph of lines ${b.from}-${b.to}`);
      const key = text.replace(/\s+/g, ' ').trim().toLowerCase();
      const before = seen.get(key);
      if (before !== undefined && wordsOf(key).length >= 8) problem('duplicate_paragraph', b.from, `the paragraph repeats the one at line ${before}`);
      else seen.set(key, b.from);
    });
    const last = blocks[blocks.length - 1];
    const lastLine = last?.lines[last.lines.length - 1] ?? '';
    if (last && last.kind !== 'list' && !ENDS_SENTENCE.test(lastLine)) problem('truncated', last.to, `the last line stops mid-sentence: "${excerpt(lastLine, 80)}"`);

    const validation = {
      pass: problems.length === 0,
      words,
      paragraphs: blocks.length,
      dialogueParagraphs: blocks.filter((b) => b.kind === 'dialogue').length,
      problems: problems.slice(0, MAX_PROBLEMS),
    };
    const found = problems.length ? `fails: ${problems.slice(0, 4).map((p) => `${p.kind} (${p.at})`).join(', ')}${problems.length > 4 ? `, and ${problems.length - 4} more` : ''}` : 'passes';
    return { data: { validation } as Record<string, JsonValue>, summary: `${file.path}: ${words} words, ${blocks.length} paragraphs; ${found}.` };
  },
};
