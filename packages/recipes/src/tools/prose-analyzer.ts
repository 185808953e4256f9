import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { at, blocksOf, sentencesOf, wordsOf, type Block } from './text.js';
import { optionalIntArg, stringArg } from './tool-args.js';
import { readWorkspaceText } from './workspace-read.js';

/** Lines of narration in one paragraph from which it is a stall (the default of `max_lines`). */
export const STALL_LINES = 8;
/** List items in a row from which a list is a stall. */
export const STALL_LIST_ITEMS = 6;
/** The most stalls `prose_analyzer` gives. */
export const MAX_STALLS = 50;

/** A stretch of a file that holds the scene still. */
export type Stall = { from: string; to: string; lines: number; reason: string };

function describe(block: Block): string {
  const text = block.lines.join(' ');
  const words = wordsOf(text).length;
  const sentences = Math.max(1, sentencesOf(block.lines.join('\n'), block.lines).length);
  const commas = text.match(/[,;]/g)?.length ?? 0;
  const catalogue = commas / sentences >= 3 ? `, ${commas} commas and semicolons: a catalogue` : '';
  return `a ${block.lines.length}-line paragraph of narration (${words} words in ${sentences} sentences, no dialogue${catalogue}) holds the scene still`;
}

/**
 * `prose_analyzer { file_path, max_lines? }` → `{ prose_report: { paragraphs,
 * dialogueParagraphs, sentences, words, avgSentenceLength, longestRun,
 * stalls } }`: counts of the file's prose, its longest paragraph
 * (`{ from, to, kind, lines }`, kind `narration`, `dialogue` or `list`), and
 * the stretches that stall it (`{ from, to, lines, reason }`): a paragraph
 * of narration of `max_lines` lines or more (8 by default), a list of six
 * items or more, and narration running twice `max_lines` lines over several
 * paragraphs without a line of dialogue.
 */
export const proseAnalyzer: RecipeTool = {
  name: 'prose_analyzer',
  description: 'Measures a scene\'s prose (paragraphs, sentences, average sentence length, longest paragraph) and flags stalls: long static paragraphs, lists, long stretches without dialogue. Args: file_path, max_lines (optional, default 8). Gives prose_report.',
  requiredArgs: ['file_path'],
  outputs: ['prose_report'],
  run(args, { workspace }) {
    const file = readWorkspaceText(workspace, stringArg('prose_analyzer', args, 'file_path'));
    const maxLines = optionalIntArg('prose_analyzer', args, 'max_lines', 2, 1000) ?? STALL_LINES;
    const all = blocksOf(file.lines);
    const blocks = all.filter((b) => b.kind !== 'heading');
    const sentences = sentencesOf(file.text, file.lines).length;
    const words = blocks.reduce((n, b) => n + wordsOf(b.lines.join(' ')).length, 0);
    const longest = blocks.reduce<Block | undefined>((best, b) => (!best || b.lines.length > best.lines.length ? b : best), undefined);
    const stalls: Stall[] = [];
    const stall = (from: number, to: number, lines: number, reason: string) => stalls.push({ from: at(file.path, from), to: at(file.path, to), lines, reason });
    let run: Block[] = [];
    const endRun = () => {
      const lines = run.reduce((n, b) => n + b.lines.length, 0);
      if (run.length > 1 && lines >= 2 * maxLines && run.every((b) => b.lines.length < maxLines)) stall((run[0] as Block).from, (run[run.length - 1] as Block).to, lines, `${lines} lines of narration over ${run.length} paragraphs without dialogue or a heading`);
      run = [];
    };
    for (const b of all) {
      if (b.kind === 'list' && b.lines.length >= STALL_LIST_ITEMS) stall(b.from, b.to, b.lines.length, `a list of ${b.lines.length} lines stops the prose`);
      if (b.kind === 'narration' && b.lines.length >= maxLines) stall(b.from, b.to, b.lines.length, describe(b));
      if (b.kind === 'narration') run.push(b);
      else endRun();
    }
    endRun();
    stalls.sort((a, b) => Number(a.from.split(':').pop()) - Number(b.from.split(':').pop()));
    const report = {
      paragraphs: blocks.length,
      dialogueParagraphs: blocks.filter((b) => b.kind === 'dialogue').length,
      sentences,
      words,
      avgSentenceLength: sentences ? Math.round((words / sentences) * 10) / 10 : 0,
      longestRun: longest ? { from: at(file.path, longest.from), to: at(file.path, longest.to), kind: longest.kind, lines: longest.lines.length } : null,
      stalls: stalls.slice(0, MAX_STALLS),
    };
    const found = stalls.length ? `${stalls.length} stall${stalls.length === 1 ? '' : 's'}: ${stalls.slice(0, 3).map((s) => `lines ${s.from.split(':').pop()}-${s.to.split(':').pop()} (${s.reason})`).join('; ')}` : 'no stalls';
    return {
      data: { prose_report: report } as Record<string, JsonValue>,
      summary: `${file.path}: ${report.paragraphs} paragraphs, ${sentences} sentences, ${report.avgSentenceLength} words a sentence; ${found}.`,
    };
  },
};
