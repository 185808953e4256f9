import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { proseAnalyzer } from '../../src/tools/prose-analyzer.js';
import { bookCopy, dataOf, run } from './helpers.js';

describe('prose_analyzer', () => {
  it('flags the twelve-line catalogue of weights in scene 2 (lines 19-30)', async () => {
    const result = await run(proseAnalyzer, { file_path: 'scenes/scene-02.md' }, bookCopy());
    expect(dataOf(result).prose_report).toEqual({
      paragraphs: 13,
      dialogueParagraphs: 4,
      sentences: 37,
      words: 549,
      avgSentenceLength: 14.8,
      longestRun: { from: 'scenes/scene-02.md:19', to: 'scenes/scene-02.md:30', kind: 'narration', lines: 12 },
      stalls: [
        {
          from: 'scenes/scene-02.md:19',
          to: 'scenes/scene-02.md:30',
          lines: 12,
          reason: 'a 12-line paragraph of narration (199 words in 8 sentences, no dialogue) holds the scene still',
        },
      ],
    });
    expect(result.summary).toBe('scenes/scene-02.md: 13 paragraphs, 37 sentences, 14.8 words a sentence; 1 stall: lines 19-30 (a 12-line paragraph of narration (199 words in 8 sentences, no dialogue) holds the scene still).');
  });

  it('finds no stall in scene 1, whose longest paragraph is four lines', async () => {
    const report = dataOf(await run(proseAnalyzer, { file_path: 'scenes/scene-01.md' }, bookCopy())).prose_report;
    expect(report).toMatchObject({ stalls: [], longestRun: { from: 'scenes/scene-01.md:17', to: 'scenes/scene-01.md:20', kind: 'narration', lines: 4 } });
  });

  it('flags long lists and long stretches without dialogue; max_lines moves the threshold', async () => {
    const book = bookCopy();
    const list = Array.from({ length: 7 }, (_, i) => `- weight ${i + 1}: brass`).join('\n');
    const narration = Array.from({ length: 6 }, () => 'She walked.\nHe followed.\nThey stopped.').join('\n\n');
    writeFileSync(join(book, 'scenes', 'scene-03.md'), `# Scene 3\n\n${list}\n\n${narration}\n`);
    const stalls = dataOf(await run(proseAnalyzer, { file_path: 'scenes/scene-03.md' }, book)).prose_report.stalls;
    expect(stalls).toEqual([
      { from: 'scenes/scene-03.md:3', to: 'scenes/scene-03.md:9', lines: 7, reason: 'a list of 7 lines stops the prose' },
      { from: 'scenes/scene-03.md:11', to: 'scenes/scene-03.md:33', lines: 18, reason: '18 lines of narration over 6 paragraphs without dialogue or a heading' },
    ]);
    const strict = dataOf(await run(proseAnalyzer, { file_path: 'scenes/scene-02.md', max_lines: 4 }, book)).prose_report.stalls;
    expect(strict.map((s: { from: string }) => s.from)).toEqual(['scenes/scene-02.md:9', 'scenes/scene-02.md:19', 'scenes/scene-02.md:40']);
  });
});
