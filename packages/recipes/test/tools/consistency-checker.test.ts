import { describe, expect, it } from 'vitest';
import { consistencyChecker } from '../../src/tools/consistency-checker.js';
import { bookCopy, dataOf, run } from './helpers.js';

describe('consistency_checker', () => {
  it("finds Wren's eyes green in the canon and scene 1, brown in scene 2", async () => {
    const result = await run(consistencyChecker, { paths: ['scenes/scene-01.md', 'scenes/scene-02.md', 'canon.md'] }, bookCopy());
    expect(dataOf(result).consistency_report).toEqual({
      checked: 3,
      claims: 11,
      conflicts: [
        {
          subject: 'Wren Adair',
          attribute: 'eyes',
          claims: [
            { value: 'green', at: 'canon.md:15', quote: 'eyes: green' },
            { value: 'green', at: 'scenes/scene-01.md:19', quote: 'Her green eyes went straight to the chart.' },
            { value: 'brown', at: 'scenes/scene-02.md:17', quote: 'Her brown eyes were wide in the lamplight.' },
          ],
          claimCount: 3,
          detail: "Wren Adair's eyes: green (canon.md:15, scenes/scene-01.md:19) vs brown (scenes/scene-02.md:17)",
        },
      ],
    });
    expect(result.summary).toBe("3 files checked, 11 claims on eyes, hair, age and handedness of 4 characters; 1 conflict: Wren Adair's eyes: green (canon.md:15, scenes/scene-01.md:19) vs brown (scenes/scene-02.md:17).");
  });

  it('finds the same contradiction between the two scenes with no canon, naming the characters from the prose', async () => {
    const report = dataOf(await run(consistencyChecker, { paths: ['scenes/scene-01.md', 'scenes/scene-02.md'] }, bookCopy())).consistency_report;
    expect(report.conflicts.map((c: { detail: string }) => c.detail)).toEqual(["Wren Adair's eyes: green (scenes/scene-01.md:19) vs brown (scenes/scene-02.md:17)"]);
  });

  it('finds no conflict where the files agree', async () => {
    const report = dataOf(await run(consistencyChecker, { paths: ['scenes/scene-01.md', 'canon.md'] }, bookCopy())).consistency_report;
    expect(report).toMatchObject({ checked: 2, conflicts: [] });
  });
});
