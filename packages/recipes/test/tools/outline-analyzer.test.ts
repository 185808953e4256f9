import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outlineAnalyzer } from '../../src/tools/outline-analyzer.js';
import { bookCopy, dataOf, run } from './helpers.js';

describe('outline_analyzer', () => {
  it("gives the outline's scenes with their beats, and the beat of the scene asked for", async () => {
    const result = await run(outlineAnalyzer, { file_path: 'outline.md', scene: 'scene 2' }, bookCopy());
    const data = dataOf(result);
    expect(data.outline_beat).toEqual({
      chapter: 'Chapter 1: The Missing Page',
      title: 'Scene 1.2: The Weighhouse',
      id: '1.2',
      scenePath: 'scenes/scene-02.md',
      source: 'outline.md:14',
      written: true,
      beats: [
        { text: 'Ilse and Wren slip into the Weighhouse.', source: 'outline.md:15' },
        { text: "The ledger's page for this evening has been torn out. Tension rises from here to the end.", source: 'outline.md:16' },
        { text: 'Crane comes in; they hide behind the great scale.', source: 'outline.md:17' },
        { text: 'Crane burns a letter in the stove. Ilse sees only that it is a letter.', source: 'outline.md:18' },
        { text: 'Nine bells: the water gates close and shut them in on the Weighhouse side until dawn.', source: 'outline.md:19' },
      ],
    });
    expect(data.beats.map((s: { id: string }) => s.id)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1', '3.2', '4.1', '4.2']);
    expect(data.beats[4]).toMatchObject({ chapter: 'Chapter 3: The Letter', scenePath: null, written: false, beats: [{ source: 'outline.md:29' }] });
    expect(data.premise).toMatch(/^A short novel in four chapters\. Ilse Maren/);
    expect(result.summary).toBe('outline.md: 4 chapters, 8 scenes, 14 beats; scene 1.2 (The Weighhouse, scenes/scene-02.md) has 5 beats.');
  });

  it('picks the scene by number, path, title words or a task description; null when none is named', async () => {
    const book = bookCopy();
    const pick = async (scene?: string) => dataOf(await run(outlineAnalyzer, scene === undefined ? { file_path: 'outline.md' } : { file_path: 'outline.md', scene }, book)).outline_beat?.id ?? null;
    expect(await pick('1.2')).toBe('1.2');
    expect(await pick('scenes/scene-02.md')).toBe('1.2');
    expect(await pick('Draft scene 3.1 from the outline')).toBe('3.1');
    expect(await pick('the Rope Walk')).toBe('2.2');
    expect(await pick()).toBeNull();
    expect(await pick('nothing like it')).toBeNull();
  });

  it('says a scene file the outline names is not written yet', async () => {
    const book = bookCopy();
    rmSync(join(book, 'scenes', 'scene-02.md'));
    expect(dataOf(await run(outlineAnalyzer, { file_path: 'outline.md', scene: '1.2' }, book)).outline_beat.written).toBe(false);
  });
});
