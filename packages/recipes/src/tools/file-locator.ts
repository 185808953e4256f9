import type { JsonValue } from '@orchestra/core';
import type { RecipeTool } from '../tool-types.js';
import { fileSceneNumber, headingSceneNumber, parseSceneQuery, sceneNumberPattern, type SceneQuery } from './scene-refs.js';
import { escapeRegExp, excerpt, isHeading } from './text.js';
import { stringArg } from './tool-args.js';
import { byText, listWorkspaceFiles, readWorkspaceText, type WorkspaceText } from './workspace-read.js';

/** The most matching lines `file_locator` gives. */
export const MAX_MATCHES = 40;
/** The most scene files it reads to rank them (the rest are listed after them, unread). */
export const MAX_RANKED_SCENES = 500;

const TEXT_FILES = ['.md', '.markdown', '.txt'];
const isScene = (path: string) => (/(^|\/)scenes?\//i.test(path) || /^scene/i.test(path.split('/').pop() ?? '')) && !/^readme/i.test(path.split('/').pop() ?? '');
const isOutline = (path: string) => /^outline[^/]*\.(md|markdown)$/i.test(path.split('/').pop() ?? '');
const isCanon = (path: string) => /^canon[^/]*\.(md|markdown)$/i.test(path.split('/').pop() ?? '');
/** Shallower paths first, then by name. */
const byDepth = (a: string, b: string) => a.split('/').length - b.split('/').length || byText(a, b);

function sceneScore(file: WorkspaceText, query: SceneQuery): { score: number; why: string[] } {
  const why: string[] = [];
  let score = 0;
  const ids = [fileSceneNumber(file.path), headingSceneNumber(file.lines)];
  for (const n of query.numbers) if (ids.includes(n)) (score += 1000), why.push(`scene ${n}`);
  for (const p of query.paths) if (p === file.path || file.path.endsWith(`/${p}`)) (score += 1000), why.push(p);
  const title = `${file.path} ${file.lines.find(isHeading) ?? ''}`.toLowerCase();
  for (const w of query.words) {
    const hits = file.text.match(new RegExp(`(?<![\\p{L}])${escapeRegExp(w)}`, 'giu'))?.length ?? 0;
    if (title.includes(w)) score += 20;
    if (hits) (score += 10 + Math.min(hits, 50)), why.push(w);
  }
  return { score, why };
}

function matchingLines(file: WorkspaceText, query: SceneQuery, scoreWhy: string[]): { path: string; line: number; text: string }[] {
  const numbers = query.numbers.map(sceneNumberPattern);
  const words = query.words.map((w) => new RegExp(`(?<![\\p{L}])${escapeRegExp(w)}`, 'iu'));
  const paths = query.paths.map((p) => p.toLowerCase());
  const found: { path: string; line: number; text: string }[] = [];
  file.lines.forEach((text, i) => {
    const heading = i === file.lines.findIndex(isHeading) && scoreWhy.length > 0;
    if (heading || numbers.some((re) => re.test(text)) || words.some((re) => re.test(text)) || paths.some((p) => text.toLowerCase().includes(p))) {
      found.push({ path: file.path, line: i + 1, text: excerpt(text) });
    }
  });
  return found;
}

/**
 * `file_locator { search }` → `{ scenePaths, outlinePath, canonPaths, matches }`:
 * the project's scene files (under `scenes/` or named `scene*`), its outline
 * (`outline*.md`) and canon files (`canon*.md`). Scenes the search names
 * (`scene 2`, `scene-02`, `scenes/scene-02.md`, a character or a word of the
 * title) come first, best match first; `matches` gives the lines of scenes,
 * outline and canon where the search's scene numbers and words occur.
 */
export const fileLocator: RecipeTool = {
  name: 'file_locator',
  description: 'Finds the scene files, the outline and the canon files of the workspace; scenes the search names (a number, a path, a name) first. Args: search. Gives scenePaths, outlinePath, canonPaths, matches.',
  requiredArgs: ['search'],
  outputs: ['scenePaths', 'outlinePath', 'canonPaths', 'matches'],
  run(args, { workspace, signal }) {
    const search = stringArg('file_locator', args, 'search', true);
    const query = parseSceneQuery(search);
    const files = listWorkspaceFiles(workspace, TEXT_FILES);
    const scenes = files.filter((p) => isScene(p) && !isOutline(p) && !isCanon(p) && /\.(md|markdown)$/i.test(p));
    const outlines = files.filter(isOutline).sort(byDepth);
    const canonPaths = files.filter(isCanon).sort(byDepth);
    const ranked = scenes.map((path, i) => {
      signal.throwIfAborted();
      let file: WorkspaceText = { path, text: '', lines: [] };
      try {
        if (i < MAX_RANKED_SCENES) file = readWorkspaceText(workspace, path);
      } catch {
        // unreadable or too large: listed, not ranked
      }
      return { file, ...sceneScore(file, query) };
    });
    ranked.sort((a, b) => b.score - a.score || byText(a.file.path, b.file.path));
    const hits = ranked.filter((r) => r.score > 0);
    const matches: { path: string; line: number; text: string }[] = [];
    const look = [...hits.map((r) => ({ file: r.file, why: r.why })), ...[outlines[0], ...canonPaths].filter((p): p is string => p !== undefined).map((p) => ({ file: readWorkspaceText(workspace, p), why: [] }))];
    for (const { file, why } of look) matches.push(...matchingLines(file, query, why));
    const outlinePath = outlines[0] ?? null;
    const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
    const best = hits[0];
    const found = best ? `${best.file.path.split('/').pop()} matches ${best.why.slice(0, 3).map((w) => `'${w}'`).join(', ')}${hits.length > 1 ? ` (and ${count(hits.length - 1, 'other scene', 'other scenes')})` : ''}` : search.trim() ? `no scene matches '${excerpt(search, 60)}'` : 'no search given';
    const data: Record<string, JsonValue> = { scenePaths: ranked.map((r) => r.file.path), outlinePath, canonPaths, matches: matches.slice(0, MAX_MATCHES) };
    return {
      data,
      summary: `${count(scenes.length, 'scene', 'scenes')}, ${outlinePath ? '1 outline' : 'no outline'}, ${count(canonPaths.length, 'canon file', 'canon files')}; ${found}.`,
    };
  },
};
