import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePipelineSource, splitRootStatements } from '../src/dot/parse-pipeline-source.js';
import { normalizeSource } from '../src/dot/normalize-source.js';

const FIXTURES = new URL('../../../fixtures/', import.meta.url).pathname;

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? fixtureFiles(join(dir, e.name)) : e.name.endsWith('.dot') ? [join(dir, e.name)] : []));
}

/** Statements of every kind, spread over lines in the ways DOT allows. */
const TRICKY = `digraph Tricky {
  graph [goal="ship it", label="a {brace} and ; semicolon"]
  rankdir
    = LR
  node [shape=box, timeout=900s]
  edge [weight=2]
  start [shape=Mdiamond]; exit [shape=Msquare]
  a [prompt="line one
line two -> not an edge"]
  b
    [label="B"]
  subgraph
  cluster_loop {
    label = "Loop A"
    node [class=inner]
    c; d
    c -> d
  }
  start -> a
    -> b
  b -> c [condition="outcome=success"]
  d -> exit
  e // a comment
  /* block
     comment */ f
  "g" [label=<<b>bold</b>>]
  a -> e -> f -> g
  g -> exit
}
`;

describe('parsing a long file in pieces', () => {
  const sources: [string, string][] = [...fixtureFiles(FIXTURES).map((f): [string, string] => [f, readFileSync(f, 'utf8')]), ['tricky.dot', TRICKY]];

  it.each(sources)('gives the graph and diagnostics of a whole parse: %s', (file, source) => {
    const whole = parsePipelineSource(source, file);
    for (const pieceLength of [1, 7, 40]) expect(parsePipelineSource(source, file, { pieceLength })).toEqual(whole);
  });

  it('gives the result of a whole parse for mutated fixtures too (comments, strings, HTML, broken statements)', () => {
    const fixtures = sources.filter(([file]) => !file.includes('invalid')).map(([, source]) => source);
    const piece = fc.constantFrom(...'{}[]"=;,-><:\n abc_'.split(''), '->', '/*', '*/', '//', '<b>', 'subgraph', 'node', '\n  x\n');
    const edit = fc.record({ at: fc.nat(), text: fc.array(piece, { minLength: 1, maxLength: 3 }).map((a) => a.join('')), cut: fc.integer({ min: 0, max: 3 }) });
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.array(edit, { maxLength: 4 }), fc.integer({ min: 1, max: 60 }), (fixture, edits, pieceLength) => {
        let source = fixture;
        for (const e of edits) {
          const at = e.at % (source.length + 1);
          source = source.slice(0, at) + e.text + source.slice(at + e.cut);
        }
        expect(parsePipelineSource(source, 'p.dot', { pieceLength })).toEqual(parsePipelineSource(source, 'p.dot', { pieceLength: Number.MAX_SAFE_INTEGER }));
      }),
      { numRuns: 300 },
    );
  });

  // Found by the property above (seed 676421327): cutting "di" off "digraph" leaves an undirected
  // graph whose later pieces were parsed as a digraph's, so their `->` edges passed.
  it('parses the later pieces of an undirected or strict graph as the same kind of graph', () => {
    const fixture = readFileSync(join(FIXTURES, 'seed-4-phase.dot'), 'utf8');
    // The property cut "\ndi" (and put back a line break) right before the graph's keyword.
    const at = fixture.indexOf('\ndigraph Seed {');
    expect(at).toBeGreaterThanOrEqual(0);
    const mutated = `${fixture.slice(0, at)}\n${fixture.slice(at + 3)}`;
    expect(mutated).toContain('\ngraph Seed {');
    const small = ['graph G {\n  a [label="x"]\n  b\n  a -> b\n}\n', 'graph G {\n  a\n  b\n  a -- b\n}\n', 'strict digraph G {\n  a\n  b\n  a -> b\n}\n'];
    for (const source of [mutated, ...small]) {
      const whole = parsePipelineSource(source, 'p.dot', { pieceLength: Number.MAX_SAFE_INTEGER });
      expect(parsePipelineSource(source, 'p.dot', { pieceLength: 1 })).toEqual(whole);
    }
    const whole = parsePipelineSource(mutated, 'p.dot', { pieceLength: Number.MAX_SAFE_INTEGER });
    expect(whole.graph).toBeUndefined();
    expect(whole.diagnostics.map((d) => d.severity)).toContain('error');
  });

  it('cuts only between statements of the root graph', () => {
    const { text } = normalizeSource(TRICKY);
    const cuts = splitRootStatements(text, 1) as number[];
    expect(cuts.length).toBeGreaterThan(10);
    expect(text[cuts[cuts.length - 1] as number]).toBe('}');
    const pieces = cuts.slice(0, -1).map((cut, i) => text.slice(cut, cuts[i + 1]).trim());
    expect(pieces).toContain('rankdir\n    = LR');
    expect(pieces.some((p) => p.startsWith('b\n    [label='))).toBe(true);
    expect(pieces.some((p) => p.startsWith('subgraph\n  cluster_loop {'))).toBe(true);
    expect(pieces.some((p) => p.startsWith('start -> a\n    -> b'))).toBe(true);
  });

  it('does not cut a short text, or one with anything after the graph', () => {
    expect(splitRootStatements('digraph { a; b }', 100)).toBeUndefined();
    expect(splitRootStatements('digraph { a; b; c }\ndigraph { d }', 1)).toBeUndefined();
  });

  it('reports a syntax error in a later piece like a whole parse does', () => {
    const lines = ['digraph Big {', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
    for (let i = 0; i < 2000; i++) lines.push(`  s${i} [prompt="step ${i}"]`, `  ${i === 0 ? 'start' : `s${i - 1}`} -> s${i}`);
    lines.push('  s1999 -> exit', '}');
    const broken = [...lines];
    broken.splice(3000, 0, '  x -> [label="oops"]');
    const source = broken.join('\n');
    const whole = parsePipelineSource(source, 'big.dot', { pieceLength: Number.MAX_SAFE_INTEGER });
    expect(whole.graph).toBeUndefined();
    expect(parsePipelineSource(source, 'big.dot', { pieceLength: 1000 })).toEqual(whole);
    const good = lines.join('\n');
    const inPieces = parsePipelineSource(good, 'big.dot', { pieceLength: 1000 });
    expect(inPieces).toEqual(parsePipelineSource(good, 'big.dot', { pieceLength: Number.MAX_SAFE_INTEGER }));
    expect(inPieces.graph?.nodes.size).toBe(2002);
  });
});
