import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLocator } from '../../src/tools/file-locator.js';
import { bookCopy, bookWithLinksOut, dataOf, run } from './helpers.js';

describe('file_locator', () => {
  it('finds the scenes, the outline and the canon, the scene the search names first', async () => {
    const result = await run(fileLocator, { search: 'scene 2' }, bookCopy());
    expect(dataOf(result)).toEqual({
      scenePaths: ['scenes/scene-02.md', 'scenes/scene-01.md'],
      outlinePath: 'outline.md',
      canonPaths: ['canon.md'],
      matches: [
        { path: 'scenes/scene-02.md', line: 1, text: '# Scene 1.2: The Weighhouse' },
        { path: 'outline.md', line: 14, text: '### Scene 1.2: The Weighhouse (scenes/scene-02.md)' },
      ],
    });
    expect(result.summary).toBe("2 scenes, 1 outline, 1 canon file; scene-02.md matches 'scene 2'.");
  });

  it('reads scene-02, scene 1.2, a path and a name as well, and leaves the order alone when nothing matches', async () => {
    const book = bookCopy();
    for (const search of ['scene-02', 'Draft scene 1.2 again', 'review scenes/scene-02.md', 'the torn page']) {
      expect(dataOf(await run(fileLocator, { search }, book)).scenePaths, search).toEqual(['scenes/scene-02.md', 'scenes/scene-01.md']);
    }
    expect(dataOf(await run(fileLocator, { search: 'scene 1' }, book)).scenePaths).toEqual(['scenes/scene-01.md', 'scenes/scene-02.md']);
    const crane = await run(fileLocator, { search: 'Crane' }, book);
    expect(dataOf(crane).matches).toContainEqual({ path: 'canon.md', line: 18, text: '**Tobiah Crane**' });
    const none = await run(fileLocator, { search: 'zebra' }, book);
    expect(dataOf(none)).toMatchObject({ scenePaths: ['scenes/scene-01.md', 'scenes/scene-02.md'], matches: [] });
    expect(none.summary).toBe("2 scenes, 1 outline, 1 canon file; no scene matches 'zebra'.");
  });

  it('finds files named scene* anywhere, and says when there is no outline', async () => {
    const dir = join(bookCopy(), '..', 'other');
    mkdirSync(join(dir, 'drafts'), { recursive: true });
    writeFileSync(join(dir, 'drafts', 'scene3.md'), '# Scene 3\n\nText.\n');
    writeFileSync(join(dir, 'notes.md'), 'not a scene\n');
    const result = await run(fileLocator, { search: '' }, dir);
    expect(dataOf(result)).toEqual({ scenePaths: ['drafts/scene3.md'], outlinePath: null, canonPaths: [], matches: [] });
    expect(result.summary).toBe('1 scene, no outline, 0 canon files; no search given.');
  });

  it('does not list files behind symbolic links that lead out of the workspace', async () => {
    const result = await run(fileLocator, { search: 'secret' }, bookWithLinksOut());
    expect(dataOf(result).scenePaths).toEqual(['scenes/scene-01.md', 'scenes/scene-02.md']);
    expect(JSON.stringify(result)).not.toContain('secret.md');
  });
});
