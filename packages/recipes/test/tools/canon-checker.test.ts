import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonChecker } from '../../src/tools/canon-checker.js';
import { RecipeToolError } from '../../src/tool-types.js';
import { bookCopy, dataOf, run } from './helpers.js';

describe('canon_checker', () => {
  it("finds Wren's brown eyes (green in the canon) and Ilse knowing her father is alive before scene 3.1", async () => {
    const result = await run(canonChecker, { scene_path: 'scenes/scene-02.md', canon_paths: ['canon.md'] }, bookCopy());
    const context = dataOf(result).canon_context;
    expect(context.scene).toBe('scenes/scene-02.md');
    expect(context.conflicts).toEqual([
      {
        subject: 'Wren Adair',
        attribute: 'eyes',
        scene: 'scenes/scene-02.md:17',
        canon: 'canon.md:15',
        detail: "Wren Adair's eyes are brown here but green in the canon",
        quote: 'Her brown eyes were wide in the lamplight.',
      },
      {
        subject: 'Ilse Maren',
        attribute: 'knowledge',
        scene: 'scenes/scene-02.md:41',
        canon: 'canon.md:10',
        detail: 'Ilse Maren knows that he is alive here (scene 1.2), but the canon has her learn it only in scene 3.1',
        quote: expect.stringMatching(/^She had known since the spring, .* that her father was alive on Corrow/),
      },
    ]);
    expect(result.summary).toMatch(/^32 facts on 9 subjects from canon\.md; scenes\/scene-02\.md contradicts it 2 times: Wren Adair's eyes are brown here/);
  });

  it("gives the canon's facts with their lines", async () => {
    const context = dataOf(await run(canonChecker, { scene_path: 'scenes/scene-02.md', canon_paths: 'canon.md' }, bookCopy())).canon_context;
    expect(context.facts).toContainEqual({ subject: 'Wren Adair', attribute: 'eyes', fact: 'eyes: green', value: 'green', source: 'canon.md:15' });
    expect(context.facts).toContainEqual({ subject: 'Ilse Maren', attribute: 'handedness', fact: 'handedness: left', value: 'left', source: 'canon.md:8' });
    expect(context.facts).toContainEqual({ subject: 'Tobiah Crane', attribute: 'age', fact: 'age: 52', value: '52', source: 'canon.md:19' });
    expect(context.facts).toContainEqual({ subject: 'Rule of the world', attribute: 'note', fact: 'The water gates under the Tallow Bridge close at nine bells and open at dawn.', value: null, source: 'canon.md:35' });
  });

  it('finds nothing in scene 1, which agrees with the canon (green eyes, nineteen)', async () => {
    const result = await run(canonChecker, { scene_path: 'scenes/scene-01.md', canon_paths: ['canon.md'] }, bookCopy());
    expect(dataOf(result).canon_context.conflicts).toEqual([]);
    expect(result.summary).toContain('nothing in scenes/scene-01.md contradicts');
  });

  it('checks ages, handedness and named possessors too', async () => {
    const book = bookCopy();
    writeFileSync(join(book, 'scenes', 'scene-03.md'), "# Scene 2.1: Dawn\n\nCrane's grey eyes found the pencil. Ilse was twenty, and right-handed.\n");
    const conflicts = dataOf(await run(canonChecker, { scene_path: 'scenes/scene-03.md', canon_paths: ['canon.md'] }, book)).canon_context.conflicts;
    expect(conflicts.map((c: { detail: string; scene: string }) => `${c.scene} ${c.detail}`)).toEqual([
      "scenes/scene-03.md:3 Tobiah Crane's eyes are grey here but brown in the canon",
      'scenes/scene-03.md:3 Ilse Maren is 20 here but 17 in the canon',
      'scenes/scene-03.md:3 Ilse Maren is right-handed here but left-handed in the canon',
    ]);
  });

  it('refuses an empty canon list', async () => {
    await expect(run(canonChecker, { scene_path: 'scenes/scene-02.md', canon_paths: [] }, bookCopy())).rejects.toThrow(new RecipeToolError('canon_checker: the argument canon_paths is an empty list'));
  });
});
