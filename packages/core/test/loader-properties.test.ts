import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFixture } from './helpers.js';
import { loadPipeline, type Diagnostic } from '../src/index.js';

/** Loads and checks the loader's promises: no throw; every error located inside the input. */
function checkInvariants(source: string): Diagnostic[] {
  const result = loadPipeline(source, { file: 'prop.dot' });
  const lines = source.split('\n');
  for (const d of result.diagnostics) {
    if (d.severity === 'error') expect(d.location, JSON.stringify(d)).toBeDefined();
    if (!d.location) continue;
    const { line, column } = d.location;
    expect(line, JSON.stringify(d)).toBeGreaterThanOrEqual(1);
    expect(line, JSON.stringify(d)).toBeLessThanOrEqual(lines.length);
    expect(column, JSON.stringify(d)).toBeGreaterThanOrEqual(1);
    expect(column, JSON.stringify(d)).toBeLessThanOrEqual((lines[line - 1] as string).length + 1);
  }
  expect(result.ok).toBe(result.graph !== undefined && !result.diagnostics.some((d) => d.severity === 'error'));
  return result.diagnostics;
}

const FIXTURES = ['simple.dot', 'branching.dot', 'human-gate.dot', 'stylesheet.dot', 'dialect.dot'].map(readFixture);

/** Characters that matter to the DOT lexer, so mutations hit interesting paths. */
const DOT_CHARS = fc.constantFrom(...'{}[]()"\'=;,-><:.#/*\\\n\r\t abcxyz019_'.split(''), '->', '--', '/*', '*/', '//', 'digraph', 'graph', 'subgraph', 'node', 'edge', 'strict', '\u00e9', '\u{1F600}');

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.array(DOT_CHARS, { minLength: 1, maxLength: 4 }).map((a) => a.join('')) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: DOT_CHARS }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);

type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(source: string, mutations: Mutation[]): string {
  let s = source;
  for (const m of mutations) {
    const at = s.length === 0 ? 0 : m.at % (s.length + 1);
    if (m.kind === 'insert') s = s.slice(0, at) + m.text + s.slice(at);
    else if (m.kind === 'delete') s = s.slice(0, at) + s.slice(at + m.length);
    else if (m.kind === 'replace') s = s.slice(0, at) + m.text + s.slice(at + 1);
    else s = s.slice(0, at);
  }
  return s;
}

describe('loader properties', () => {
  it('never throws on arbitrary text and locates every error inside it', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 300 }), (text) => {
        checkInvariants(text);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on text made of DOT tokens and locates every error inside it', () => {
    fc.assert(
      fc.property(fc.array(DOT_CHARS, { maxLength: 120 }), (parts) => {
        checkInvariants(`digraph G {${parts.join('')}}`);
        checkInvariants(parts.join(''));
      }),
      { numRuns: 400 },
    );
  });

  it('never throws on mutated real pipelines and locates every error inside them', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIXTURES), fc.array(mutation, { minLength: 1, maxLength: 5 }), (source, mutations) => {
        checkInvariants(mutate(source, mutations));
      }),
      { numRuns: 600 },
    );
  });

  it('round-trips any attribute value written as an escaped DOT string', () => {
    const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 60 }), (prompt, label) => {
        const src = `digraph G {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  work [prompt="${escape(prompt)}", label="${escape(label)}"]\n  start -> work -> exit\n}`;
        const result = loadPipeline(src);
        expect(result.graph?.nodes.get('work')?.attributes).toEqual({ prompt: prompt.replace(/\$goal(?![A-Za-z0-9_])/g, ''), label });
      }),
      { numRuns: 300 },
    );
  });
});
