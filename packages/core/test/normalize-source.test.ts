import { describe, expect, it } from 'vitest';
import { normalizeSource } from '../src/dot/normalize-source.js';

describe('normalizeSource', () => {
  it('lifts quoted strings into placeholders, decoding the dialect escapes', () => {
    const n = normalizeSource('a [x="q\\"uote\\\\ tab\\t nl\\n raw\nline \\l"]');
    expect(n.text).toBe('a [x="0"]');
    expect(n.tokens[0]).toEqual({ value: 'q"uote\\ tab\t nl\n raw\nline \\l', quoted: true, offset: 5 });
  });

  it('treats a backslash before a newline as a line continuation', () => {
    const n = normalizeSource('a [x="one \\\ntwo"]');
    expect(n.tokens[0]?.value).toBe('one two');
  });

  it('lifts bare words that are not plain DOT ids (dotted keys, durations, model names)', () => {
    const n = normalizeSource('a [agent.mode=interactive, timeout=900s, llm_model=claude-sonnet-4.5, w=-1.5, n=.5]');
    expect(n.tokens.map((t) => [t.value, t.quoted])).toEqual([
      ['agent.mode', false],
      ['900s', false],
      ['claude-sonnet-4.5', false],
    ]);
    expect(n.text).toBe('a ["0"=interactive, timeout="1", llm_model="2", w=-1.5, n=.5]');
  });

  it('keeps edge operators intact next to words', () => {
    const n = normalizeSource('a->b.c->d');
    expect(n.text).toBe('a->"0"->d');
    expect(n.tokens[0]?.value).toBe('b.c');
  });

  it('replaces comments with a space but keeps comment-like text inside strings', () => {
    const n = normalizeSource('a /* x "y" */ b // c "d"\n# e\nf [l="// not /* a comment"]');
    expect(n.text).toBe('a   b  \n \nf [l="0"]');
    expect(n.tokens[0]?.value).toBe('// not /* a comment');
  });

  it('maps every offset of the normalised text back to the original', () => {
    const src = 'digraph {\n  a [prompt="line1\nline2", agent.mode=x]\n  b\n}';
    const n = normalizeSource(src);
    const bInNorm = n.text.indexOf('b\n');
    expect(src[n.toOriginal(bInNorm)]).toBe('b');
    const modeInNorm = n.text.indexOf('"1"');
    expect(n.toOriginal(modeInNorm)).toBe(src.indexOf('agent.mode'));
    expect(n.toOriginal(0)).toBe(0);
    expect(n.toOriginal(n.text.length)).toBe(src.length);
  });

  it('reports an unterminated string at its opening quote', () => {
    const n = normalizeSource('digraph { a [x="open] }');
    expect(n.problem).toEqual({ message: expect.stringContaining('unterminated string'), offset: 15 });
  });

  it('reports an unterminated block comment', () => {
    const n = normalizeSource('digraph { /* never closed }');
    expect(n.problem?.message).toContain('unterminated comment');
    expect(n.problem?.offset).toBe(10);
  });
});
