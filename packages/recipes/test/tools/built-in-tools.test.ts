import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { JsonValue } from '@orchestra/core';
import { describe, expect, it } from 'vitest';
import { RecipeToolError } from '../../src/tool-types.js';
import { BUILT_IN_TOOLS, builtInTool } from '../../src/tools/built-in-tools.js';
import { canonChecker } from '../../src/tools/canon-checker.js';
import { proseAnalyzer } from '../../src/tools/prose-analyzer.js';
import { bookCopy, bookWithLinksOut, run } from './helpers.js';

const SCENES = ['scenes/scene-01.md', 'scenes/scene-02.md'];

/** A call of each tool on the sample book. */
const CALLS: Record<string, Record<string, JsonValue>> = {
  file_locator: { search: 'scene 2' },
  outline_analyzer: { file_path: 'outline.md', scene: 'scene 2' },
  canon_checker: { scene_path: 'scenes/scene-02.md', canon_paths: ['canon.md'] },
  consistency_checker: { paths: [...SCENES, 'canon.md'] },
  prose_analyzer: { file_path: 'scenes/scene-02.md' },
  stakes_mapper: { outline_path: 'outline.md', scene_paths: SCENES },
  scene_draft_validator: { scene_path: 'scenes/scene-02.md' },
};

/** Each file argument of each tool, given `path` in its place. */
const WITH_PATH: [string, (path: string) => Record<string, JsonValue>][] = [
  ['outline_analyzer', (p) => ({ file_path: p })],
  ['canon_checker', (p) => ({ scene_path: p, canon_paths: ['canon.md'] })],
  ['canon_checker', (p) => ({ scene_path: 'scenes/scene-02.md', canon_paths: ['canon.md', p] })],
  ['consistency_checker', (p) => ({ paths: ['canon.md', p] })],
  ['prose_analyzer', (p) => ({ file_path: p })],
  ['stakes_mapper', (p) => ({ outline_path: p, scene_paths: SCENES })],
  ['stakes_mapper', (p) => ({ outline_path: 'outline.md', scene_paths: [p] })],
  ['scene_draft_validator', (p) => ({ scene_path: p })],
];

const tool = (name: string) => builtInTool(name) ?? expect.unreachable(`no tool ${name}`);

describe('BUILT_IN_TOOLS', () => {
  it('lists the seven tools in order, each described, with its arguments and outputs', () => {
    expect(BUILT_IN_TOOLS.map((t) => t.name)).toEqual(['file_locator', 'outline_analyzer', 'canon_checker', 'consistency_checker', 'prose_analyzer', 'stakes_mapper', 'scene_draft_validator']);
    expect(builtInTool('canon_checker')).toBe(canonChecker);
    expect(builtInTool('nope')).toBeUndefined();
    for (const t of BUILT_IN_TOOLS) expect(t.description.length, t.name).toBeGreaterThan(40);
  });

  it('gives exactly the output keys it declares, and a one-line summary', async () => {
    const book = bookCopy();
    for (const t of BUILT_IN_TOOLS) {
      const result = await run(t, CALLS[t.name] as Record<string, JsonValue>, book);
      expect(Object.keys(result.data as object).sort(), t.name).toEqual([...(t.outputs ?? [])].sort());
      for (const arg of t.requiredArgs ?? []) expect(CALLS[t.name], t.name).toHaveProperty(arg);
      expect(result.summary, t.name).not.toContain('\n');
    }
  });

  it('is deterministic: two runs, and runs on two copies of the book, give the same result', async () => {
    const [a, b] = [bookCopy(), bookCopy()];
    for (const t of BUILT_IN_TOOLS) {
      const args = CALLS[t.name] as Record<string, JsonValue>;
      const first = await run(t, args, a);
      expect(await run(t, args, a), t.name).toEqual(first);
      expect(await run(t, args, b), t.name).toEqual(first);
    }
  });

  it('refuses paths that lead out of the workspace by .., an absolute path or a symbolic link', async () => {
    const book = bookWithLinksOut();
    const outside = resolve(book, '..', 'outside', 'secret.md');
    const refusals: [string, string][] = [
      ['../outside/secret.md', '../outside/secret.md is outside the workspace'],
      ['scenes/../../outside/secret.md', 'scenes/../../outside/secret.md is outside the workspace'],
      [outside, `${outside} is outside the workspace`],
      ['leak.md', 'leak.md is outside the workspace (a symbolic link leads out of it)'],
      ['scenes/leak/secret.md', 'scenes/leak/secret.md is outside the workspace (a symbolic link leads out of it)'],
    ];
    for (const [name, args] of WITH_PATH) {
      for (const [path, message] of refusals) {
        await expect(run(tool(name), args(path), book), `${name} ${path}`).rejects.toThrow(new RecipeToolError(message));
      }
    }
  });

  it('says clearly when a file is missing, is a directory or is too large, or an argument is missing or wrong', async () => {
    const book = bookCopy();
    writeFileSync(join(book, 'huge.md'), 'x'.repeat(2 * 1024 * 1024 + 1));
    for (const [name, args] of WITH_PATH) {
      await expect(run(tool(name), args('scenes/scene-09.md'), book), name).rejects.toThrow(new RecipeToolError('there is no file scenes/scene-09.md in the workspace'));
      await expect(run(tool(name), args('scenes'), book), name).rejects.toThrow(new RecipeToolError('scenes is not a file'));
      await expect(run(tool(name), args('huge.md'), book), name).rejects.toThrow(new RecipeToolError('huge.md is larger than 2 MiB'));
    }
    for (const t of BUILT_IN_TOOLS) {
      await expect(run(t, {}, book), t.name).rejects.toThrow(new RecipeToolError(`${t.name}: the argument ${t.requiredArgs?.[0]} is missing`));
    }
    await expect(run(proseAnalyzer, { file_path: 42 }, book)).rejects.toThrow(new RecipeToolError('prose_analyzer: the argument file_path must be a string, not 42'));
    await expect(run(proseAnalyzer, { file_path: '' }, book)).rejects.toThrow(new RecipeToolError('prose_analyzer: the argument file_path is empty'));
    await expect(run(canonChecker, { scene_path: 'scenes/scene-02.md', canon_paths: [1] }, book)).rejects.toThrow(new RecipeToolError('canon_checker: the argument canon_paths must be a list of paths, not [1]'));
  });

  it('reads a symbolic link that stays inside the workspace, under the path it was given', async () => {
    const book = bookCopy();
    mkdirSync(join(book, 'drafts'));
    symlinkSync(join(book, 'scenes', 'scene-02.md'), join(book, 'drafts', 'current.md'));
    const result = await run(proseAnalyzer, { file_path: './drafts/current.md' }, book);
    expect((result.data as { prose_report: { stalls: { from: string }[] } }).prose_report.stalls[0]?.from).toBe('drafts/current.md:19');
  });

  it('stops when the run is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(Promise.resolve().then(() => canonChecker.run(CALLS.canon_checker as Record<string, JsonValue>, { workspace: bookCopy(), signal: controller.signal }))).rejects.toThrow();
  });
});
