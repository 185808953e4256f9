import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sceneDraftValidator } from '../../src/tools/scene-draft-validator.js';
import { RecipeToolError } from '../../src/tool-types.js';
import { bookCopy, dataOf, run } from './helpers.js';

describe('scene_draft_validator', () => {
  it('passes the written scenes', async () => {
    const book = bookCopy();
    const result = await run(sceneDraftValidator, { scene_path: 'scenes/scene-02.md' }, book);
    expect(dataOf(result).validation).toEqual({ pass: true, words: 549, paragraphs: 13, dialogueParagraphs: 4, problems: [] });
    expect(result.summary).toBe('scenes/scene-02.md: 549 words, 13 paragraphs; passes.');
    expect(dataOf(await run(sceneDraftValidator, { scene_path: 'scenes/scene-01.md' }, book)).validation.pass).toBe(true);
  });

  it('fails a short scene with min_words above its length, and a long one under max_words', async () => {
    const book = bookCopy();
    expect(dataOf(await run(sceneDraftValidator, { scene_path: 'scenes/scene-02.md', min_words: 600 }, book)).validation).toMatchObject({
      pass: false,
      problems: [{ kind: 'too_short', at: 'scenes/scene-02.md', detail: '549 words; at least 600 expected' }],
    });
    expect(dataOf(await run(sceneDraftValidator, { scene_path: 'scenes/scene-02.md', max_words: 500 }, book)).validation.problems).toEqual([{ kind: 'too_long', at: 'scenes/scene-02.md', detail: '549 words; at most 500 expected' }]);
    await expect(run(sceneDraftValidator, { scene_path: 'scenes/scene-02.md', min_words: -1 }, book)).rejects.toThrow(RecipeToolError);
  });

  it("finds a model's leftovers: chatter, placeholders, fences, open quotes, a repeated paragraph, a cut-off end", async () => {
    const book = bookCopy();
    const para = 'Wren tied the ferry to the iron ring below the steps and tried the side door.';
    writeFileSync(join(book, 'draft.md'), `Here is the scene you asked for:\n\n${para}\n\n"He never locks it, she whispered.\n\n${para}\n\n[insert the fight here]\n\n\`\`\`\nThen Crane came in and\n`);
    const validation = dataOf(await run(sceneDraftValidator, { scene_path: 'draft.md', min_words: 10 }, book)).validation;
    expect(validation.pass).toBe(false);
    expect(validation.problems.map((p: { kind: string; at: string }) => `${p.kind} ${p.at}`)).toEqual([
      'no_title draft.md',
      'chatter draft.md:1',
      'placeholder draft.md:9',
      'code_fence draft.md:11',
      'unbalanced_quotes draft.md:5',
      'duplicate_paragraph draft.md:7',
      'truncated draft.md:12',
    ]);
  });
});
