import { describe, expect, it } from 'vitest';
import { MAX_EDGE_CHAIN, MAX_SOURCE_LENGTH, MAX_SUBGRAPH_DEPTH, nodeClasses, parsePipelineSource } from '../src/loader.js';
import { attrs, byRule, graphOf, load } from './helpers.js';

describe('DOT parsing (spec §11.1)', () => {
  it('accepts the supported subset: digraph with graph, node and edge attribute blocks', () => {
    const g = graphOf(`digraph Flow {
      graph [goal="Ship it"]
      node [shape=box]
      edge [weight=2]
      start [shape=Mdiamond]
      exit [shape=Msquare]
      work [prompt="Do it"]
      start -> work -> exit
    }`);
    expect(g.name).toBe('Flow');
    expect([...g.nodes.keys()]).toEqual(['start', 'exit', 'work']);
    expect(g.edges.map((e) => `${e.from}->${e.to}`)).toEqual(['start->work', 'work->exit']);
    expect(attrs(g, 'work')).toEqual({ shape: 'box', prompt: 'Do it' });
    expect(g.edges[0]?.attributes).toEqual({ weight: '2' });
  });

  it('extracts graph-level attributes from blocks and top-level key=value', () => {
    const g = graphOf(`digraph G {
      graph [goal="The goal", label="Display"]
      model_stylesheet = "* { llm_model: m; }"
      rankdir=LR;
    }`);
    expect(g.attributes).toEqual({ goal: 'The goal', label: 'Display', model_stylesheet: '* { llm_model: m; }', rankdir: 'LR' });
  });

  it('parses multi-line attribute blocks', () => {
    const g = graphOf(`digraph G {
      review [
        shape=hexagon,
        label="Review Changes",
        type="wait.human"
      ]
    }`);
    expect(attrs(g, 'review')).toEqual({ shape: 'hexagon', label: 'Review Changes', type: 'wait.human' });
  });

  it('parses edge attributes label, condition and weight', () => {
    const g = graphOf('digraph G { a -> b [label="Yes", condition="outcome=success && context.x=\\"a b\\"", weight=5] }');
    expect(g.edges[0]?.attributes).toEqual({ label: 'Yes', condition: 'outcome=success && context.x="a b"', weight: '5' });
  });

  it('expands chained edges into one edge per pair, each with the attributes', () => {
    const g = graphOf('digraph G { a -> b -> c -> d [label="next", weight=1] }');
    expect(g.edges.map((e) => [e.from, e.to, e.attributes.label, e.attributes.weight])).toEqual([
      ['a', 'b', 'next', '1'],
      ['b', 'c', 'next', '1'],
      ['c', 'd', 'next', '1'],
    ]);
    expect(g.edges.map((e) => e.location?.column)).toEqual([13, 18, 23]);
  });

  it('applies node and edge default blocks to later declarations only, explicit values winning', () => {
    const g = graphOf(`digraph G {
      early
      node [timeout="900s", shape=box]
      edge [weight=3]
      a [timeout="30m"]
      b
      a -> b
      b -> a [weight=7]
    }`);
    expect(attrs(g, 'early')).toEqual({});
    expect(attrs(g, 'a')).toEqual({ timeout: '30m', shape: 'box' });
    expect(attrs(g, 'b')).toEqual({ timeout: '900s', shape: 'box' });
    expect(g.nodes.get('b')?.origins.timeout?.source).toBe('default');
    expect(g.nodes.get('a')?.origins.timeout?.source).toBe('explicit');
    expect(g.edges.map((e) => e.attributes.weight)).toEqual(['3', '7']);
  });

  it('flattens subgraphs, scoping their defaults and deriving a class from the label', () => {
    const g = graphOf(`digraph G {
      node [reasoning_effort=low]
      subgraph cluster_loop {
        node [thread_id="loop-a", timeout="900s"]
        Plan      [label="Plan next step"]
        Implement [label="Implement", timeout="1800s"]
        label = "Loop A"
        subgraph inner { label="Inner Part!"; Deep }
      }
      After
      Plan -> Implement -> After
    }`);
    expect([...g.nodes.keys()]).toEqual(['Plan', 'Implement', 'Deep', 'After']);
    expect(attrs(g, 'Plan')).toEqual({ reasoning_effort: 'low', thread_id: 'loop-a', timeout: '900s', label: 'Plan next step' });
    expect(attrs(g, 'Implement').timeout).toBe('1800s');
    expect(attrs(g, 'After')).toEqual({ reasoning_effort: 'low' });
    expect(nodeClasses(g.nodes.get('Plan')!)).toEqual(['loop-a']);
    expect(nodeClasses(g.nodes.get('Deep')!)).toEqual(['loop-a', 'inner-part']);
    expect(nodeClasses(g.nodes.get('After')!)).toEqual([]);
    expect(g.edges).toHaveLength(2);
    expect(g.attributes.label).toBeUndefined();
  });

  it('gives a node the class of every subgraph it is mentioned in', () => {
    const g = graphOf(`digraph G {
      a [class="code, critical"]
      subgraph s1 { label="Review"; a }
    }`);
    expect(nodeClasses(g.nodes.get('a')!)).toEqual(['code', 'critical', 'review']);
  });

  it('creates nodes mentioned only in edges, with the defaults in scope', () => {
    const g = graphOf('digraph G { node [shape=box] a -> b }');
    expect(attrs(g, 'b')).toEqual({ shape: 'box' });
  });

  it('reads quoted and unquoted values alike', () => {
    const g = graphOf('digraph G { a [shape="box", label=Plain, max_retries=3, ratio=0.5, neg=-2, flag=true, t=900s, m=gpt-5.2] }');
    expect(attrs(g, 'a')).toEqual({ shape: 'box', label: 'Plain', max_retries: '3', ratio: '0.5', neg: '-2', flag: 'true', t: '900s', m: 'gpt-5.2' });
  });

  it('accepts unquoted dotted keys and quoted ones', () => {
    const g = graphOf('digraph G { tool_hooks.pre="echo"; a [agent.mode="interactive", "human.default_choice"=b, human.timeout=15m] }');
    expect(g.attributes['tool_hooks.pre']).toBe('echo');
    expect(attrs(g, 'a')).toEqual({ 'agent.mode': 'interactive', 'human.default_choice': 'b', 'human.timeout': '15m' });
  });

  it('strips // and /* */ comments, leaving comment-like text in strings alone', () => {
    const g = graphOf(`// leading
      digraph G { /* block
      over lines */ a [label="http://x /* y */", prompt="# not a comment"] // trailing
      # preprocessor-style line
      b }`);
    expect(attrs(g, 'a')).toEqual({ label: 'http://x /* y */', prompt: '# not a comment' });
    expect([...g.nodes.keys()]).toEqual(['a', 'b']);
  });

  it('decodes \\n, \\t, \\\\ and \\" escapes and keeps raw newlines in strings', () => {
    const g = graphOf('digraph G { a [prompt="a\\nb\\tc\\\\d\\"e", raw="one\ntwo"] }');
    expect(attrs(g, 'a')).toEqual({ prompt: 'a\nb\tc\\d"e', raw: 'one\ntwo' });
  });

  it('keeps line and column exact after multi-line strings and dotted keys', () => {
    const src = ['digraph G {', '  a [prompt="line one', 'line two', 'line three", agent.mode=x]', '  b [label="B"]', '  a -> b', '}'].join('\n');
    const g = graphOf(src);
    expect(g.nodes.get('b')?.location).toEqual({ file: 'test.dot', line: 5, column: 3 });
    expect(g.nodes.get('a')?.origins['agent.mode']?.location).toEqual({ file: 'test.dot', line: 4, column: 14 });
    expect(g.edges[0]?.location).toEqual({ file: 'test.dot', line: 6, column: 3 });
  });

  it('reports a syntax error with its line and column, and no graph', () => {
    const r = load('digraph G {\n  a [label="x"\n  b -> c\n}');
    expect(r.graph).toBeUndefined();
    expect(r.ok).toBe(false);
    expect(r.diagnostics).toHaveLength(1);
    expect(r.diagnostics[0]).toMatchObject({ rule: 'syntax', severity: 'error', location: { file: 'test.dot', line: 3, column: 5 } });
    expect(r.diagnostics[0]?.message).toMatch(/^expected .*found "-"$/);
  });

  it('places a syntax error after a multi-line string on the right line', () => {
    const r = load('digraph G {\n  a [prompt="1\n2\n3"]\n  b [x=]\n}');
    expect(r.diagnostics[0]).toMatchObject({ rule: 'syntax', location: { line: 5, column: 8 } });
  });

  it('names the offending word of a lifted bare value in syntax errors', () => {
    const r = load('digraph G {\n  a -> claude-3.5 = x\n}');
    expect(r.diagnostics[0]?.location).toMatchObject({ line: 2 });
  });

  it.each([
    ['undirected graphs', 'graph G { a -- b }', /undirected/],
    ['the -- operator in a digraph', 'digraph G { a -- b }', /undirected edge `--`/],
    ['strict graphs', 'strict digraph G { a -> b }', /strict/],
    ['several graphs', 'digraph A { a } digraph B { b }', /only one graph/],
    ['HTML labels', 'digraph G { a [label=<<b>x</b>>] }', /HTML/],
    ['edges to groups', 'digraph G { a -> { b c } }', /group/],
    ['invalid node ids', 'digraph G { "two words" }', /invalid node id/],
    ['ports', 'digraph G { a:n -> b }', /invalid node id "a:n"/],
  ])('rejects %s with an error diagnostic, never an exception', (_what, src, message) => {
    const r = load(src);
    expect(r.ok).toBe(false);
    const errors = r.diagnostics.filter((d) => d.severity === 'error' && ['syntax', 'dialect', 'node_id'].includes(d.rule));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.map((d) => d.message).join('\n')).toMatch(message);
    for (const d of errors) expect(d.location?.line).toBeGreaterThanOrEqual(1);
  });

  it('reports an empty file as having no digraph', () => {
    const r = load('  // nothing\n');
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ rule: 'syntax', severity: 'error', location: { line: 2, column: 1 } });
    expect(r.diagnostics[0]?.message).toMatch(/digraph.*found end of file/);
  });

  it('refuses absurdly large input with a clear message instead of parsing it', () => {
    const r = parsePipelineSource(`digraph G { ${' '.repeat(MAX_SOURCE_LENGTH)} }`, 'huge.dot');
    expect(r.graph).toBeUndefined();
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ rule: 'input_limit', severity: 'error', message: expect.stringMatching(/too large/) }),
    ]);
  });

  it('accepts edge chains of up to MAX_EDGE_CHAIN edges, past ts-graphviz defaults', () => {
    const ids = Array.from({ length: MAX_EDGE_CHAIN + 1 }, (_, i) => `n${i}`);
    const g = graphOf(`digraph G { ${ids.join(' -> ')} [weight=1]\n a -> b }`);
    expect(g.edges).toHaveLength(MAX_EDGE_CHAIN + 1);
  });

  it('refuses longer chains with a clear message at the offending arrow instead of overflowing the stack', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => `n${i}`);
    const r = load(`digraph G {\n${ids.join(' -> ')}\n}`);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({ rule: 'syntax', severity: 'error', message: expect.stringMatching(/edge chain too long/), location: expect.objectContaining({ line: 2 }) }),
    ]);
  });

  it.each([300, 2_500, 20_000])('refuses subgraphs nested %i deep with input_limit, not an exception', (depth) => {
    const r = load(`digraph G { ${'subgraph { '.repeat(depth)}${'} '.repeat(depth)}}`);
    expect(r.ok).toBe(false);
    expect(r.diagnostics[0]).toMatchObject({ rule: 'input_limit', severity: 'error', location: { line: 1 } });
  });

  it('accepts subgraphs nested up to MAX_SUBGRAPH_DEPTH', () => {
    const g = graphOf(`digraph G { ${'subgraph { '.repeat(MAX_SUBGRAPH_DEPTH)} deep ${'} '.repeat(MAX_SUBGRAPH_DEPTH)}}`);
    expect(g.nodes.has('deep')).toBe(true);
  });

  it('reads # at the start of a line as a comment and elsewhere as part of a bare value', () => {
    const g = graphOf('digraph G {\n  # a comment line\n  a [color=#ff0000, label="#1"]\n}');
    expect(attrs(g, 'a')).toEqual({ color: '#ff0000', label: '#1' });
    // A lone # mid-line is not a comment (Graphviz would reject it): it shows up, it does not hide code.
    expect(load('digraph G {\n  a -> b # note\n}').diagnostics).toContainEqual(
      expect.objectContaining({ rule: 'node_id', message: expect.stringContaining('"#"'), location: { file: 'test.dot', line: 2, column: 10 } }),
    );
  });

  it('records the source file on the graph and on every location', () => {
    const g = graphOf('digraph G { a }');
    expect(g.file).toBe('test.dot');
    expect(byRule(load('digraph G { a }').diagnostics, 'start_node')[0]?.location?.file).toBe('test.dot');
  });
});
