import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULES } from '../../src/loader.js';

const doc = readFileSync(new URL('../../../../docs/validate.md', import.meta.url), 'utf8');

/** The rule names of the table under a `### <heading>` of docs/validate.md, in order. */
function table(heading: string): string[] {
  const start = doc.indexOf(`### ${heading}\n`);
  expect(start, heading).toBeGreaterThan(-1);
  const section = doc.slice(start, doc.indexOf('\n#', start + 4));
  return [...section.matchAll(/^\| `([a-z_]+)`(?: †)? \| (?:error|warning) \|/gm)].map((m) => m[1] as string);
}

describe('docs/validate.md rules', () => {
  it('lists every built-in lint rule, in the order they run, and counts them right', () => {
    const lint = table('Lint');
    expect(lint).toEqual(BUILT_IN_RULES.map((r) => r.name));
    const loader = table('Loader');
    expect(loader).toEqual(expect.arrayContaining(['syntax', 'dialect', 'node_id', 'input_limit', 'transform', 'node_redeclared', 'sub_pipeline']));
    expect(doc).toContain(`There are ${loader.length + lint.length} built-in rule ids: ${loader.length} from the loader, then ${lint.length}\nlint rules`);
  });
});
