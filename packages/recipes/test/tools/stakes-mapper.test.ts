import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stakesMapper } from '../../src/tools/stakes-mapper.js';
import { bookCopy, dataOf, run } from './helpers.js';

const SCENES = ['scenes/scene-01.md', 'scenes/scene-02.md'];

describe('stakes_mapper', () => {
  it('maps the threads the outline returns to onto the scene lines that mention them', async () => {
    const result = await run(stakesMapper, { outline_path: 'outline.md', scene_paths: SCENES }, bookCopy());
    const threads = dataOf(result).stakes_map.threads as { name: string; introduced: string; outlineScenes: string[]; mentionCount: number; mentions: { at: string }[] }[];
    expect(threads.map((t) => t.name)).toEqual(['Ilse', 'Weighhouse', 'ledger', 'Wren', 'boat', 'water gates', 'Crane', 'scale', 'letter', 'stove', 'Corrow', 'Anselm', 'father']);
    const letter = threads.find((t) => t.name === 'letter');
    expect(letter).toEqual({
      name: 'letter',
      introduced: 'outline.md:18',
      outlineScenes: ['1.2', '3.1'],
      mentions: [
        { at: 'scenes/scene-02.md:37', text: 'the red glow, turning a folded letter over in his right hand, the one short of two fingers.' },
        { at: 'scenes/scene-02.md:42', text: 'letters came to the Weighhouse, that her father was alive on Corrow, and that Crane lied to' },
      ],
      mentionCount: 2,
      missingFrom: [],
    });
    expect(threads.find((t) => t.name === 'Corrow')?.mentions.map((m) => m.at)).toEqual(['scenes/scene-02.md:42']);
    expect(threads.find((t) => t.name === 'Anselm')?.mentionCount).toBe(0);
    expect(dataOf(result).stakes_map.scenes).toEqual(SCENES);
    expect(result.summary).toMatch(/^13 threads in outline\.md \(Ilse, Weighhouse, ledger, Wren, boat, water gates, Crane, scale, …\) over 2 scene files; every scene the outline ties a thread to names it; not yet in the scenes: Anselm\.$/);
  });

  it('names a scene the outline ties a thread to that never mentions it', async () => {
    const book = bookCopy();
    writeFileSync(join(book, 'scenes', 'scene-02.md'), '# Scene 1.2: The Weighhouse\n\nIlse and Wren waited by the door until the bells rang.\n');
    const threads = dataOf(await run(stakesMapper, { outline_path: 'outline.md', scene_paths: SCENES }, book)).stakes_map.threads as { name: string; missingFrom: string[] }[];
    expect(threads.filter((t) => t.missingFrom.length).map((t) => t.name)).toEqual(['ledger', 'water gates', 'Crane', 'scale', 'letter', 'stove']);
  });
});
