import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The `ts` code blocks of a page of docs/. */
function codeBlocks(page: string): string[] {
  const text = readFileSync(new URL(`../../../docs/${page}`, import.meta.url), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string);
}

/**
 * Each page, with the example files it shows in full, from the repository
 * root: this package's test/docs-examples/, and @orchestra/llm's (examples
 * that import @orchestra/llm run in that package, which depends on this one).
 */
const pages: Record<string, string[]> = {
  'human-in-the-loop.md': ['packages/testing/test/docs-examples/review-pipeline.test.ts', 'packages/testing/test/docs-examples/interactive-pipeline.test.ts'],
  'testing-pipelines.md': [
    'packages/llm/test/docs-examples/release-note-fake-model.test.ts',
    'packages/llm/test/docs-examples/release-note-model-backend.test.ts',
    'packages/llm/test/docs-examples/outline-conversation.test.ts',
    'packages/llm/test/docs-examples/release-note-cassette.test.ts',
    'packages/testing/test/docs-examples/release-note-pipeline.test.ts',
  ],
};

for (const [page, files] of Object.entries(pages)) {
  describe(`docs/${page}`, () => {
    it.each(files)('shows %s exactly as the suite runs it', (file) => {
      const code = readFileSync(new URL(`../../../${file}`, import.meta.url), 'utf8');
      expect(codeBlocks(page)).toContain(code);
    });
  });
}
