import { describe, expect, it } from 'vitest';
import { parseStylesheet, specificity } from '../src/loader.js';
import { attrs, byRule, graphOf, load, pipeline } from './helpers.js';

describe('stylesheet parsing (spec §8.2)', () => {
  it('parses rules with every selector kind, quoted and bare values', () => {
    const r = parseStylesheet(`
      * { llm_model: claude-sonnet-4-5; llm_provider: anthropic; }
      box { llm_model: "claude-opus-4-6" }
      .fast { llm_model: gemini-3-flash-preview; }
      /* comment */ #review { reasoning_effort: "high"; }
    `);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.stylesheet.rules.map((rule) => [rule.selector, rule.declarations])).toEqual([
      [{ kind: 'universal' }, [{ property: 'llm_model', value: 'claude-sonnet-4-5' }, { property: 'llm_provider', value: 'anthropic' }]],
      [{ kind: 'shape', shape: 'box' }, [{ property: 'llm_model', value: 'claude-opus-4-6' }]],
      [{ kind: 'class', className: 'fast' }, [{ property: 'llm_model', value: 'gemini-3-flash-preview' }]],
      [{ kind: 'id', id: 'review' }, [{ property: 'reasoning_effort', value: 'high' }]],
    ]);
    expect(r.stylesheet.rules.map((rule) => specificity(rule.selector))).toEqual([0, 1, 2, 3]);
  });

  it.each([
    ['* { llm_modle: x; }', 'unknown property "llm_modle"', 4],
    ['* { llm_model x; }', 'expected ":"', 14],
    ['* { llm_model: x; ', 'unclosed rule', 18],
    ['* llm_model: x; }', 'expected "{"', 2],
    ['. { llm_model: x }', 'class name', 1],
    ['{ llm_model: x }', 'expected a selector', 0],
    ['* { llm_model: x y }', 'expected ";" or "}"', 17],
  ])('rejects %j (%s) at index %i', (source, message, index) => {
    const r = parseStylesheet(source);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.message).toContain(message);
      expect(r.error.index).toBe(index);
    }
  });
});

describe('stylesheet application (spec §11.10)', () => {
  const withStylesheet = (sheet: string, body: string) =>
    pipeline(`  graph [model_stylesheet="${sheet}"]\n${body}\n  start -> a -> b -> c -> exit`);

  it('is read from the graph model_stylesheet attribute and applied to nodes', () => {
    const g = graphOf(withStylesheet('* { llm_model: base; }', '  a [prompt="x"]\n  b [prompt="x"]\n  c [prompt="x"]'));
    expect(attrs(g, 'a').llm_model).toBe('base');
    expect(g.nodes.get('a')?.origins.llm_model?.source).toBe('transform');
  });

  it('selects by shape', () => {
    const g = graphOf(withStylesheet('box { llm_model: boxy; }', '  a [prompt="x"]\n  b [shape=hexagon]\n  c [prompt="x"]'));
    expect(attrs(g, 'a').llm_model).toBe('boxy');
    expect(attrs(g, 'b').llm_model).toBeUndefined();
    expect(attrs(g, 'start').llm_model).toBeUndefined();
  });

  it('selects by class, including classes derived from subgraph labels', () => {
    const g = graphOf(
      withStylesheet('.fast { llm_model: quick; }', '  a [class="slow,fast", prompt="x"]\n  subgraph s { label="Fast"; b [prompt="x"] }\n  c [prompt="x"]'),
    );
    expect(attrs(g, 'a').llm_model).toBe('quick');
    expect(attrs(g, 'b').llm_model).toBe('quick');
    expect(attrs(g, 'c').llm_model).toBeUndefined();
  });

  it('selects class names with capitals and underscores too', () => {
    const g = graphOf(withStylesheet('.Code_Review { llm_model: careful; }', '  a [class="Code_Review", prompt="x"]\n  b [class="code_review", prompt="x"]\n  c'));
    expect(attrs(g, 'a').llm_model).toBe('careful');
    expect(attrs(g, 'b').llm_model).toBeUndefined();
  });

  it('selects by node id', () => {
    const g = graphOf(withStylesheet('#b { reasoning_effort: low; }', '  a [prompt="x"]\n  b [prompt="x"]\n  c [prompt="x"]'));
    expect(attrs(g, 'b').reasoning_effort).toBe('low');
    expect(attrs(g, 'a').reasoning_effort).toBeUndefined();
  });

  it('orders by specificity universal < shape < class < id, whatever the rule order', () => {
    const sheet = '#a { llm_model: by-id; } .k { llm_model: by-class; } box { llm_model: by-shape; } * { llm_model: any; }';
    const g = graphOf(withStylesheet(sheet, '  a [class=k, prompt="x"]\n  b [class=k, prompt="x"]\n  c [prompt="x"]'));
    expect(attrs(g, 'a').llm_model).toBe('by-id');
    expect(attrs(g, 'b').llm_model).toBe('by-class');
    expect(attrs(g, 'c').llm_model).toBe('by-shape');
    expect(attrs(g, 'start').llm_model).toBe('any');
  });

  it('lets a later rule win among equal specificity', () => {
    const g = graphOf(withStylesheet('* { llm_model: first; } * { llm_model: second; }', '  a [prompt="x"]\n  b\n  c'));
    expect(attrs(g, 'a').llm_model).toBe('second');
  });

  it('never overrides explicit node attributes, but does override node [...] defaults', () => {
    const g = graphOf(
      withStylesheet('#a { llm_model: sheet; } #b { llm_model: sheet; }', '  node [llm_model=default]\n  a [llm_model=explicit, prompt="x"]\n  b [prompt="x"]\n  c [prompt="x"]'),
    );
    expect(attrs(g, 'a').llm_model).toBe('explicit');
    expect(attrs(g, 'b').llm_model).toBe('sheet');
    expect(attrs(g, 'c').llm_model).toBe('default');
  });

  it('matches the spec §8.6 example (multi-line stylesheet string)', () => {
    const g = graphOf(`digraph Pipeline {
    graph [
        goal="Implement feature X",
        model_stylesheet="
            * { llm_model: claude-sonnet-4-5; llm_provider: anthropic; }
            .code { llm_model: claude-opus-4-6; llm_provider: anthropic; }
            #critical_review { llm_model: gpt-5.2; llm_provider: openai; reasoning_effort: high; }
        "
    ]
    start [shape=Mdiamond]
    exit  [shape=Msquare]
    plan            [label="Plan", class="planning"]
    implement       [label="Implement", class="code"]
    critical_review [label="Critical Review", class="code"]
    start -> plan -> implement -> critical_review -> exit
}`);
    expect(attrs(g, 'plan')).toMatchObject({ llm_model: 'claude-sonnet-4-5', llm_provider: 'anthropic' });
    expect(attrs(g, 'implement')).toMatchObject({ llm_model: 'claude-opus-4-6', llm_provider: 'anthropic' });
    expect(attrs(g, 'critical_review')).toMatchObject({ llm_model: 'gpt-5.2', llm_provider: 'openai', reasoning_effort: 'high' });
  });

  it('reports a broken stylesheet as stylesheet_syntax at the line inside the string', () => {
    const r = load(`digraph G {
  graph [model_stylesheet="
    * { llm_model: a; }
    .code { llm_modle: b; }
  "]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  start -> exit
}`);
    expect(r.ok).toBe(false);
    const [d] = byRule(r.diagnostics, 'stylesheet_syntax');
    expect(d).toMatchObject({ severity: 'error', location: { line: 4, column: 13 } });
    expect(d?.message).toContain('llm_modle');
    expect(d?.fix).toContain('llm_model');
  });
});
