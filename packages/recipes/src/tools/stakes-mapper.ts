import { posix } from 'node:path';
import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { parseOutline } from './outline.js';
import { outlineEntries, outlineThreads } from './threads.js';
import { at, excerpt } from './text.js';
import { pathListArg, stringArg } from './tool-args.js';
import { readWorkspaceText } from './workspace-read.js';

/** The most threads `stakes_mapper` gives. */
export const MAX_THREADS = 40;
/** The most mentions it lists for one thread (`mentionCount` counts them all). */
export const MAX_MENTIONS = 12;

/** Where a scene names a thread. */
export type ThreadMention = { at: string; text: string };

/** A thread of the outline and where the scenes take it up. */
export type StakesThread = {
  name: string;
  /** The outline line that first names it in a scene (`outline.md:10`). */
  introduced: string;
  /** The outline's scenes that name it (ids, or titles when unnumbered). */
  outlineScenes: string[];
  mentions: ThreadMention[];
  mentionCount: number;
  /** Scenes given that the outline says take it up, but that never name it. */
  missingFrom: string[];
};

/**
 * `stakes_mapper { outline_path, scene_paths }` → `{ stakes_map: { threads,
 * scenes } }`: the people, places and objects the outline returns to (named
 * in two of its scenes or more, or in its premise and a scene), each with
 * the line that introduces it, the outline scenes that name it, the scene
 * lines that mention it, and the given scenes the outline ties it to that
 * never mention it.
 */
export const stakesMapper: RecipeTool = {
  name: 'stakes_mapper',
  description: 'Maps the threads the outline returns to (people, places, objects named in two of its scenes or more) to the scene lines that mention them. Args: outline_path, scene_paths. Gives stakes_map { threads, scenes }.',
  requiredArgs: ['outline_path', 'scene_paths'],
  outputs: ['stakes_map'],
  run(args, { workspace, signal }) {
    const outlineFile = readWorkspaceText(workspace, stringArg('stakes_mapper', args, 'outline_path'));
    const scenes = pathListArg('stakes_mapper', args, 'scene_paths').map((p) => {
      signal.throwIfAborted();
      return readWorkspaceText(workspace, p);
    });
    const outline = parseOutline(outlineFile);
    const dir = posix.dirname(outlineFile.path);
    const threads: StakesThread[] = outlineThreads(outlineEntries(outlineFile, outline.scenes))
      .slice(0, MAX_THREADS)
      .map((t) => {
        const mentions = scenes.flatMap((s) => s.lines.flatMap((text, i) => (t.pattern.test(text) ? [{ at: at(s.path, i + 1), text: excerpt(text, 120) }] : [])));
        const promised = t.entries.flatMap((e) => (e.scene?.scenePath ? [posix.normalize(posix.join(dir, e.scene.scenePath))] : []));
        return {
          name: t.name,
          introduced: at(outlineFile.path, t.firstLine),
          outlineScenes: t.entries.flatMap((e) => (e.scene ? [e.scene.id ?? e.scene.title] : [])),
          mentions: mentions.slice(0, MAX_MENTIONS),
          mentionCount: mentions.length,
          missingFrom: scenes.filter((s) => promised.includes(s.path) && !s.lines.some((l) => t.pattern.test(l))).map((s) => s.path),
        };
      });
    const unmet = threads.filter((t) => t.missingFrom.length);
    const unmentioned = threads.filter((t) => t.mentionCount === 0).map((t) => t.name);
    const summary =
      `${threads.length} threads in ${outlineFile.path} (${threads.slice(0, 8).map((t) => t.name).join(', ')}${threads.length > 8 ? ', …' : ''}) over ${scenes.length} scene file${scenes.length === 1 ? '' : 's'}; ` +
      (unmet.length ? `the outline ties ${unmet.map((t) => `${t.name} to ${t.missingFrom.join(', ')}`).join('; ')}, which never name${unmet.length === 1 && unmet[0]?.missingFrom.length === 1 ? 's' : ''} it` : 'every scene the outline ties a thread to names it') +
      (unmentioned.length ? `; not yet in the scenes: ${unmentioned.join(', ')}.` : '.');
    const data = { stakes_map: { threads, scenes: scenes.map((s) => s.path) } } as unknown as Record<string, JsonValue>;
    return { data, summary };
  },
};
