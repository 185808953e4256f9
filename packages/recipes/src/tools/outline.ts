import { normaliseNumber } from './scene-refs.js';
import { at, blocksOf, headingText, LIST_ITEM } from './text.js';
import type { WorkspaceText } from './workspace-read.js';

/** One beat of an outline: a list item, continuation lines joined. */
export interface OutlineBeat {
  text: string;
  /** `outline.md:15`. */
  source: string;
}

/** A scene of an outline: its heading, chapter, number, file and beats. */
export interface OutlineScene {
  /** The chapter heading it is under, or null. */
  chapter: string | null;
  /** The scene heading (`Scene 1.2: The Weighhouse (scenes/scene-02.md)` → `Scene 1.2: The Weighhouse`). */
  title: string;
  /** `1.2`, or null when the heading has no number. */
  id: string | null;
  /** The file the heading names (`scenes/scene-02.md`), or null. */
  scenePath: string | null;
  source: string;
  beats: OutlineBeat[];
}

/** An outline: the text before the first chapter, and its scenes in order. */
export interface Outline {
  premise: string;
  scenes: OutlineScene[];
}

const PATH_IN_HEADING = /\s*[([]([^()[\]]+\.(?:md|markdown|txt))[)\]](?:\([^)]*\))?\s*/i;

/**
 * Reads an outline: `##` headings are chapters, the deepest heading level
 * that has list items under it holds the scenes (`### Scene 1.2: Title
 * (scenes/scene-02.md)`), each list item a beat. A chapter with beats but
 * no scene headings is a scene of its own.
 */
export function parseOutline(file: WorkspaceText): Outline {
  const blocks = blocksOf(file.lines);
  const levelOf = (line: string) => /^#+/.exec(line)?.[0].length ?? 0;
  // The deepest heading level with list items directly below it.
  let sceneLevel = 0;
  let level = 0;
  for (const b of blocks) {
    if (b.kind === 'heading') level = levelOf(b.lines[0] ?? '');
    else if (b.lines.some((l) => LIST_ITEM.test(l)) && level > 1) sceneLevel = Math.max(sceneLevel, level);
  }
  const scenes: OutlineScene[] = [];
  const premise: string[] = [];
  let chapter: string | null = null;
  let chapterLine = 0;
  let current: OutlineScene | null = null;
  const scene = (text: string, line: number, inChapter: string | null): OutlineScene => {
    const path = PATH_IN_HEADING.exec(text)?.[1]?.replace(/^\.\//, '') ?? null;
    const title = text.replace(PATH_IN_HEADING, ' ').trim();
    const id = /\bscene\s+(\d+(?:\.\d+)*)/i.exec(title)?.[1] ?? /^(\d+(?:\.\d+)*)[.:)\s]/.exec(title)?.[1];
    const made = { chapter: inChapter, title, id: id ? normaliseNumber(id) : null, scenePath: path, source: at(file.path, line), beats: [] };
    scenes.push(made);
    return made;
  };
  for (const b of blocks) {
    const first = b.lines[0] ?? '';
    if (b.kind === 'heading') {
      const l = levelOf(first);
      if (l === 1) continue;
      if (l < sceneLevel) [chapter, chapterLine, current] = [headingText(first), b.from, null];
      else if (l === sceneLevel) current = scene(headingText(first), b.from, l === 2 ? null : chapter);
      continue;
    }
    if (!current && chapter && b.lines.some((l) => LIST_ITEM.test(l))) current = scene(chapter, chapterLine, null);
    if (!current) {
      if (!chapter) premise.push(...b.lines.map((l) => l.trim()));
      continue;
    }
    b.lines.forEach((line, i) => {
      const beats = (current as OutlineScene).beats;
      if (LIST_ITEM.test(line) || beats.length === 0) beats.push({ text: line.replace(LIST_ITEM, '').trim(), source: at(file.path, b.from + i) });
      else (beats[beats.length - 1] as OutlineBeat).text += ` ${line.trim()}`;
    });
  }
  return { premise: premise.join(' '), scenes };
}
