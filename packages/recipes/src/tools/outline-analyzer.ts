import { posix } from 'node:path';
import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { parseOutline, type OutlineScene } from './outline.js';
import { fileSceneNumber, parseSceneQuery, type SceneQuery } from './scene-refs.js';
import { escapeRegExp, excerpt } from './text.js';
import { optionalStringArg, stringArg } from './tool-args.js';
import { readWorkspaceText, workspaceFileExists } from './workspace-read.js';

/** The most scenes `outline_analyzer` gives. */
export const MAX_OUTLINE_SCENES = 500;

/** The scene of the outline a query names: by file, by number (heading, file name, then position), then by words of its title. */
export function findOutlineScene(scenes: readonly OutlineScene[], query: SceneQuery): OutlineScene | null {
  for (const p of query.paths) {
    const hit = scenes.find((s) => s.scenePath !== null && (s.scenePath === p || s.scenePath.endsWith(`/${p}`) || p.endsWith(`/${s.scenePath}`)));
    if (hit) return hit;
  }
  for (const n of query.numbers) {
    const hit = scenes.find((s) => s.id === n) ?? scenes.find((s) => s.scenePath !== null && fileSceneNumber(s.scenePath) === n) ?? (/^\d+$/.test(n) ? scenes[Number(n) - 1] : undefined);
    if (hit) return hit;
  }
  let best: OutlineScene | null = null;
  let bestScore = 0;
  for (const s of scenes) {
    const title = s.title.toLowerCase();
    const score = query.words.filter((w) => new RegExp(`(?<![\\p{L}])${escapeRegExp(w)}`, 'u').test(title)).length;
    if (score > bestScore) [best, bestScore] = [s, score];
  }
  return best;
}

/**
 * `outline_analyzer { file_path, scene? }` → `{ outline_beat, beats, premise }`:
 * the outline's scenes (`beats`: chapter, title, id, scenePath, written,
 * source, beats `[{ text, source }]`), the text before its first chapter, and
 * `outline_beat`, the scene `scene` names (`scene 2`, `1.2`, a path, words of
 * a title; a task description will do), or null when none is named.
 */
export const outlineAnalyzer: RecipeTool = {
  name: 'outline_analyzer',
  description: 'Parses an outline into chapters, scenes and beats and picks the scene asked for. Args: file_path, scene (optional: a number, a path or a task description). Gives outline_beat, beats, premise.',
  requiredArgs: ['file_path'],
  outputs: ['outline_beat', 'beats', 'premise'],
  run(args, { workspace }) {
    const file = readWorkspaceText(workspace, stringArg('outline_analyzer', args, 'file_path'));
    const asked = optionalStringArg('outline_analyzer', args, 'scene');
    const outline = parseOutline(file);
    const dir = posix.dirname(file.path);
    const scenes = outline.scenes.slice(0, MAX_OUTLINE_SCENES).map((s) => {
      const scenePath = s.scenePath === null ? null : posix.normalize(posix.join(dir, s.scenePath));
      return { ...s, scenePath, written: scenePath !== null && workspaceFileExists(workspace, scenePath) };
    });
    const picked = asked?.trim() ? findOutlineScene(scenes, parseSceneQuery(asked)) : null;
    const chapters = new Set(scenes.map((s) => s.chapter ?? s.title)).size;
    const beats = scenes.reduce((n, s) => n + s.beats.length, 0);
    const what = picked
      ? `${picked.id ? `scene ${picked.id}` : picked.title} (${picked.title.replace(/^scene\s+[\d.]+\s*[:.-]?\s*/i, '') || picked.title}${picked.scenePath ? `, ${picked.scenePath}` : ''}) has ${picked.beats.length} beat${picked.beats.length === 1 ? '' : 's'}`
      : asked?.trim()
        ? `no scene of the outline matches '${excerpt(asked, 60)}'`
        : 'no scene asked for';
    const data = { outline_beat: picked, beats: scenes, premise: outline.premise } as unknown as Record<string, JsonValue>;
    return { data, summary: `${file.path}: ${chapters} chapter${chapters === 1 ? '' : 's'}, ${scenes.length} scene${scenes.length === 1 ? '' : 's'}, ${beats} beats; ${what}.` };
  },
};
