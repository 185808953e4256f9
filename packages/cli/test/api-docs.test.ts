import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { entryPoints, reportedNames } from '../../../scripts/api-report.mjs';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LIBRARY = readFileSync(join(ROOT, 'docs/library.md'), 'utf8');
const ENTRIES = entryPoints(ROOT);

/** The names an entry point exports, from its checked-in API report (api-report.test.ts keeps it equal to the sources). */
function exported(name: string): string[] {
  const entry = ENTRIES.find((e) => e.name === name);
  if (!entry) throw new Error(`no entry point ${name}`);
  return reportedNames(readFileSync(join(ROOT, entry.report), 'utf8'));
}

/** The rows of the export tables in the section of docs/library.md headed `### \`<entry>\``, as [name, text]. */
function documented(entry: string): [string, string][] {
  const lines = LIBRARY.split('\n');
  const start = lines.indexOf(`### \`${entry}\``);
  if (start === -1) return [];
  const end = lines.findIndex((line, i) => i > start && /^#{1,3} /.test(line));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .map((line) => /^\| `([^`]+)` \| [^|]+ \| (.*) \|$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1] as string, m[2] as string]);
}

/** Each named import of an `@orchestra/*` entry in the fenced code of a markdown text, as [specifier, name]. */
function importsIn(markdown: string): [string, string][] {
  const code = [...markdown.matchAll(/^```(?:ts|tsx|js|mjs|typescript)\n([\s\S]*?)^```$/gm)].map((m) => m[1] as string).join('\n');
  return [...code.matchAll(/(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(@orchestra\/[^']+)'/g)].flatMap((m) =>
    (m[1] as string)
      .split(',')
      .map((part) => part.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0] as string)
      .filter((name) => name !== '')
      .map((name) => [m[2] as string, name] as [string, string]),
  );
}

/**
 * docs/library.md follows the tiers: a section per entry point of
 * @orchestra/core and @orchestra/llm, listing each export with one line
 * about it, exactly what the entry point exports.
 */
describe('docs/library.md documents every export of each entry point', () => {
  const libraries = ENTRIES.filter((e) => /^@orchestra\/(core|llm)(\/|$)/.test(e.name));

  it('covers the entry points of core and llm', () => {
    expect(libraries.map((e) => e.name)).toEqual(expect.arrayContaining(['@orchestra/core', '@orchestra/core/loader', '@orchestra/core/store', '@orchestra/llm']));
  });

  it.each(libraries.map((e) => [e.name] as const))('%s: one row per export, each with its line', (name) => {
    const rows = documented(name);
    const names = rows.map(([n]) => n);
    const missing = exported(name).filter((n) => !names.includes(n));
    const extra = names.filter((n) => !exported(name).includes(n));
    expect({ missing, extra }, `docs/library.md, section ### \`${name}\`: add a row for each missing export (one line: what it is), remove each extra one`).toEqual({ missing: [], extra: [] });
    expect(new Set(names).size).toBe(names.length);
    expect(rows.filter(([, text]) => text.trim() === '').map(([n]) => n)).toEqual([]);
  });

  it('the check reads the tables (a section it cannot find documents nothing)', () => {
    expect(documented('@orchestra/core').map(([n]) => n)).toContain('runPipeline');
    expect(documented('@orchestra/nothing')).toEqual([]);
  });
});

/** The docs' code imports each name from the entry point that exports it. */
describe("the docs' examples import from the entry that holds each name", () => {
  const pages = [...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`), 'README.md'];

  it.each(pages.map((p) => [p] as const))('%s', (page) => {
    const known = new Set(ENTRIES.map((e) => e.name));
    const wrong = importsIn(readFileSync(join(ROOT, page), 'utf8'))
      .filter(([specifier, name]) => !known.has(specifier) || !exported(specifier).includes(name))
      .map(([specifier, name]) => `${name} from ${specifier}${known.has(specifier) ? '' : ' (no such entry point)'}`);
    expect(wrong).toEqual([]);
  });

  it('finds the imports of a code block', () => {
    const page = "```ts\nimport { a, type B, c as d } from '@orchestra/core';\nimport type { E } from '@orchestra/core/store';\n```\n";
    expect(importsIn(page)).toEqual([
      ['@orchestra/core', 'a'],
      ['@orchestra/core', 'B'],
      ['@orchestra/core', 'c'],
      ['@orchestra/core/store', 'E'],
    ]);
  });
});
