import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_SPECS, type AttributeScope } from '../src/loader.js';

const reference = readFileSync(new URL('../../../docs/dot-reference.md', import.meta.url), 'utf8');

/** The attribute rows (`| \`name\` | type | default | ... |`) of one `### <Scope> attributes` section. */
function documented(scope: AttributeScope): { name: string; type: string; default: string }[] {
  const heading = `### ${scope[0]?.toUpperCase()}${scope.slice(1)} attributes`;
  const start = reference.indexOf(heading);
  expect(start, heading).toBeGreaterThan(-1);
  const section = reference.slice(start + heading.length, reference.indexOf('\n#', start + heading.length));
  return [...section.matchAll(/^\| `([^`]+)` \| (\w+) \| ([^|]+?) \|/gm)].map((m) => ({ name: m[1] as string, type: m[2] as string, default: (m[3] as string).replace(/`/g, '') }));
}

describe('docs/dot-reference.md', () => {
  it.each(['graph', 'node', 'edge'] as const)('documents exactly the %s attributes orchestra knows, with their types and defaults', (scope) => {
    const specs = ATTRIBUTE_SPECS.filter((s) => s.scope === scope).map((s) => ({ name: s.name, type: s.type, default: s.default }));
    expect(documented(scope)).toEqual(specs);
  });
});
