import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const guide = readFileSync(new URL('../../../docs/human-in-the-loop.md', import.meta.url), 'utf8');

/** The `ts` code blocks of the guide. */
const codeBlocks = [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);

describe('docs/human-in-the-loop.md', () => {
  it.each(['review-pipeline.test.ts', 'interactive-pipeline.test.ts'])('shows test/docs-examples/%s exactly as the suite runs it', (file) => {
    const code = readFileSync(new URL(`docs-examples/${file}`, import.meta.url), 'utf8');
    expect(codeBlocks).toContain(code);
  });
});
