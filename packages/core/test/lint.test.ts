import { describe, expect, it } from 'vitest';
import { OrchestraError, ValidationError, validate, validateOrRaise, type Graph } from '../src/index.js';
import { createPipelineLoader, parsePipelineSource, type LintRule } from '../src/loader.js';
import { byRule, load, pipeline } from './helpers.js';

function graph(src: string): Graph {
  const g = parsePipelineSource(src, 'test.dot').graph;
  if (!g) throw new Error('parse failed');
  return g;
}

const valid = pipeline('  work [prompt="Do it"]\n  start -> work -> exit');

describe('lint rules (spec §11.2)', () => {
  it('accepts a valid pipeline with no diagnostics', () => {
    expect(validate(graph(valid))).toEqual([]);
  });

  it('start_node: requires exactly one start node', () => {
    const none = validate(graph('digraph G { exit [shape=Msquare]; a [prompt="x"]; a -> exit }'));
    expect(byRule(none, 'start_node')).toEqual([
      expect.objectContaining({ severity: 'error', message: 'the pipeline has no start node', location: { file: 'test.dot', line: 1, column: 1 } }),
    ]);
    const two = validate(graph(pipeline('  s2 [shape=Mdiamond]\n  start -> exit\n  s2 -> exit')));
    expect(byRule(two, 'start_node')).toEqual([expect.objectContaining({ severity: 'error', nodeId: 's2', location: { file: 'test.dot', line: 4, column: 3 } })]);
  });

  it('start_node and terminal_node: count nodes typed start/exit whatever their shape', () => {
    const d = validate(graph('digraph G { begin [type=start]; finish [type=exit]; a [prompt="x"]; begin -> a -> finish }'));
    expect(d).toEqual([]);
  });

  it('start_node: accepts an id of start or Start without the shape', () => {
    expect(byRule(validate(graph('digraph G { Start -> exit; exit [shape=Msquare] }')), 'start_node')).toEqual([]);
    expect(byRule(validate(graph('digraph G { start -> end }')), 'start_node')).toEqual([]);
  });

  it('terminal_node: requires exactly one exit node (shape Msquare, or id exit/end)', () => {
    const none = validate(graph('digraph G { start [shape=Mdiamond]; a [prompt="x"]; start -> a }'));
    expect(byRule(none, 'terminal_node')[0]).toMatchObject({ severity: 'error', message: 'the pipeline has no exit node' });
    const two = validate(graph(pipeline('  done [shape=Msquare]\n  start -> exit\n  start -> done')));
    expect(byRule(two, 'terminal_node')).toHaveLength(1);
    expect(byRule(validate(graph('digraph G { start -> end }')), 'terminal_node')).toEqual([]);
  });

  it('start_no_incoming: the start node has no incoming edges', () => {
    const d = byRule(validate(graph(pipeline('  a [prompt="x"]\n  start -> a -> exit\n  a -> start'))), 'start_no_incoming');
    expect(d).toEqual([expect.objectContaining({ severity: 'error', edge: { from: 'a', to: 'start' }, location: { file: 'test.dot', line: 6, column: 3 } })]);
  });

  it('exit_no_outgoing: the exit node has no outgoing edges', () => {
    const d = byRule(validate(graph(pipeline('  a [prompt="x"]\n  start -> a -> exit\n  exit -> a'))), 'exit_no_outgoing');
    expect(d).toEqual([expect.objectContaining({ severity: 'error', edge: { from: 'exit', to: 'a' } })]);
  });

  it('reachability: every node is reachable from start', () => {
    const d = byRule(validate(graph(pipeline('  a [prompt="x"]\n  island [prompt="y"]\n  start -> a -> exit\n  island -> exit'))), 'reachability');
    expect(d).toEqual([
      expect.objectContaining({ severity: 'error', nodeId: 'island', message: expect.stringContaining('island'), location: { file: 'test.dot', line: 5, column: 3 } }),
    ]);
  });

  it('edge_target_exists: every edge references existing nodes', () => {
    const g = graph(valid);
    const broken: Graph = { ...g, edges: [...g.edges, { from: 'work', to: 'ghost', attributes: {}, origins: {} }] };
    expect(byRule(validate(broken), 'edge_target_exists')).toEqual([
      expect.objectContaining({ severity: 'error', edge: { from: 'work', to: 'ghost' }, message: expect.stringContaining('ghost') }),
    ]);
  });

  it('prompt_on_llm_nodes: warns for codergen nodes without prompt or label', () => {
    const d = byRule(validate(graph(pipeline('  bare\n  labelled [label="Write"]\n  tool [shape=parallelogram]\n  start -> bare -> labelled -> tool -> exit'))), 'prompt_on_llm_nodes');
    expect(d).toEqual([expect.objectContaining({ severity: 'warning', nodeId: 'bare' })]);
    // Shape-less start/exit nodes found by id are not LLM stages.
    expect(byRule(validate(graph('digraph G { start -> end }')), 'prompt_on_llm_nodes')).toEqual([]);
  });

  it('condition_syntax: reports a bad condition at the edge with its position inside the value', () => {
    const r = load(pipeline('  a [prompt="x"]\n  start -> a\n  a -> exit [condition="outcome=success && context.n > 3"]'));
    const [d] = byRule(r.diagnostics, 'condition_syntax');
    expect(d).toMatchObject({ severity: 'error', edge: { from: 'a', to: 'exit' }, location: { file: 'test.dot', line: 6, column: 54 } });
    expect(d?.message).toContain('">" is not supported');
  });

  it('stylesheet_syntax: the model stylesheet must parse', () => {
    const r = load(pipeline('  graph [model_stylesheet="* { llm_model: }"]\n  start -> exit'));
    expect(byRule(r.diagnostics, 'stylesheet_syntax')[0]).toMatchObject({ severity: 'error', location: { line: 4, column: 43 } });
  });

  it('type_known: refuses handler types no registry knows (an error, as a run refuses them), accepting registered ones', () => {
    const src = pipeline('  a [type="my.custom", prompt="x"]\n  start -> a -> exit');
    expect(byRule(validate(graph(src)), 'type_known')).toEqual([
      expect.objectContaining({ severity: 'error', nodeId: 'a', message: 'node a has type "my.custom", which no handler is registered for', location: { file: 'test.dot', line: 4, column: 6 } }),
    ]);
    expect(byRule(validate(graph(src)), 'type_known')[0]?.fix).toMatch(/^use one of start, exit, codergen, .* or register a handler for "my.custom"$/);
    expect(byRule(validate(graph(src), { knownHandlerTypes: ['my.custom'] }), 'type_known')).toEqual([]);
    expect(byRule(createPipelineLoader({ knownHandlerTypes: ['my.custom'] }).load(src).diagnostics, 'type_known')).toEqual([]);
  });

  it('fidelity_valid: warns on unknown fidelity modes on nodes, edges and the graph', () => {
    const src = pipeline('  default_fidelity=bogus\n  a [fidelity="summary:high", prompt="x"]\n  b [fidelity=everything, prompt="x"]\n  start -> a -> b\n  b -> exit [fidelity=most]');
    const d = byRule(validate(graph(src)), 'fidelity_valid');
    expect(d.map((x) => x.severity)).toEqual(['warning', 'warning', 'warning']);
    expect(d.map((x) => x.nodeId ?? x.edge ?? 'graph')).toEqual(['graph', 'b', { from: 'b', to: 'exit' }]);
  });

  it('retry_target_exists: retry targets must name nodes', () => {
    const src = pipeline('  retry_target=nowhere\n  a [retry_target=start, fallback_retry_target=gone, prompt="x"]\n  start -> a -> exit');
    const d = byRule(validate(graph(src)), 'retry_target_exists');
    expect(d.map((x) => [x.severity, x.nodeId, x.message.includes('gone') || x.message.includes('nowhere')])).toEqual([
      ['warning', undefined, true],
      ['warning', 'a', true],
    ]);
  });

  it('goal_gate_has_retry: warns for goal gates without a retry target on the node or graph', () => {
    const gate = '  a [goal_gate=true, prompt="x"]\n  start -> a -> exit';
    expect(byRule(validate(graph(pipeline(gate))), 'goal_gate_has_retry')).toEqual([expect.objectContaining({ severity: 'warning', nodeId: 'a' })]);
    expect(byRule(validate(graph(pipeline(`${gate}\n  a [retry_target=a]`))), 'goal_gate_has_retry')).toEqual([]);
    expect(byRule(validate(graph(pipeline(`  retry_target=a\n${gate}`))), 'goal_gate_has_retry')).toEqual([]);
  });

  it('attribute_value: typed attributes must hold values of their type', () => {
    const src = pipeline(
      '  default_max_retries=lots\n  a [max_retries=three, goal_gate=yes, timeout=15x, prompt="x"]\n  start -> a\n  a -> exit [weight=heavy, loop_restart=true]',
    );
    const d = byRule(validate(graph(src)), 'attribute_value');
    expect(d.map((x) => x.message)).toEqual([
      'graph: default_max_retries="lots" is not a valid integer',
      'node a: max_retries="three" is not a valid integer',
      'node a: goal_gate="yes" is not a valid boolean',
      'node a: timeout="15x" is not a valid duration',
      'edge a -> exit: weight="heavy" is not a valid integer',
    ]);
    expect(d.every((x) => x.severity === 'error' && x.fix)).toBe(true);
    expect(d[1]?.location).toEqual({ file: 'test.dot', line: 5, column: 6 });
  });

  it('attribute_value: closed sets are checked, and a bad default is reported once', () => {
    const src = pipeline(
      '  graph [model_stylesheet="#b { reasoning_effort: max; } #c { reasoning_effort: huge; } #d { reasoning_effort: huge; }"]\n  node [timeout=soon]\n  a [reasoning_effort=extreme, prompt="x"]\n  b [prompt="x"]\n  c [prompt="x"]\n  d [prompt="x"]\n  start -> a -> b -> c -> d -> exit [weight=much]',
    );
    const d = byRule(load(src).diagnostics, 'attribute_value');
    expect(d.map((x) => [x.message, x.location?.line])).toEqual([
      ['node [...] defaults: timeout="soon" is not a valid duration', 5],
      ['node a: reasoning_effort="extreme" is not one of low, medium, high', 6],
      ['node b (from model_stylesheet): reasoning_effort="max" is not one of low, medium, high', 4],
      ['node c (from model_stylesheet): reasoning_effort="huge" is not one of low, medium, high', 4],
      ['edge start -> a: weight="much" is not a valid integer', 10],
    ]);
  });

  it('reports rule, severity, node or edge, message and location on every diagnostic', () => {
    const r = load(pipeline('  a [prompt="x"]\n  orphan\n  start -> a -> exit\n  a -> exit [condition="=x"]'));
    expect(r.diagnostics.length).toBeGreaterThanOrEqual(3);
    for (const d of r.diagnostics) {
      expect(d.rule).toMatch(/^[a-z_]+$/);
      expect(['error', 'warning', 'info']).toContain(d.severity);
      expect(d.message.length).toBeGreaterThan(0);
      expect(d.nodeId ?? d.edge).toBeDefined();
      expect(d.location).toMatchObject({ file: 'test.dot', line: expect.any(Number), column: expect.any(Number) });
    }
  });
});

describe('validate and validateOrRaise (spec §7.3)', () => {
  it('validateOrRaise throws a ValidationError with a stable code on errors', () => {
    const g = graph('digraph G { a }');
    expect(() => validateOrRaise(g)).toThrow(ValidationError);
    try {
      validateOrRaise(g);
    } catch (error) {
      expect(error).toBeInstanceOf(OrchestraError);
      expect((error as ValidationError).code).toBe('ORCH_VALIDATION');
      expect((error as ValidationError).message).toContain('test.dot:1:1: [start_node]');
      expect((error as ValidationError).diagnostics.some((d) => d.rule === 'terminal_node')).toBe(true);
    }
  });

  it('validateOrRaise returns warnings when there are no errors', () => {
    const d = validateOrRaise(graph(pipeline('  a\n  start -> a -> exit')));
    expect(d.map((x) => x.rule)).toEqual(['prompt_on_llm_nodes']);
  });

  it('runs custom lint rules after the built-in ones', () => {
    const noTodo: LintRule = {
      name: 'no_todo',
      apply(g) {
        return [...g.nodes.values()]
          .filter((n) => n.attributes.prompt?.includes('TODO'))
          .map((n) => ({ rule: 'no_todo', severity: 'warning' as const, message: `${n.id} has a TODO`, nodeId: n.id }));
      },
    };
    const src = pipeline('  a [prompt="TODO write"]\n  orphan [prompt="x"]\n  start -> a -> exit');
    const d = validate(graph(src), { extraRules: [noTodo] });
    expect(d.map((x) => x.rule)).toEqual(['reachability', 'no_todo']);
    const viaLoader = createPipelineLoader().registerLintRule(noTodo).load(src);
    expect(viaLoader.diagnostics.map((x) => x.rule)).toEqual(['reachability', 'no_todo']);
  });

  it('reports a custom rule that throws as an error instead of crashing', () => {
    const d = validate(graph(valid), {
      extraRules: [
        {
          name: 'fragile',
          apply() {
            throw new Error('oops');
          },
        },
      ],
    });
    expect(d).toEqual([expect.objectContaining({ rule: 'fragile', severity: 'error', message: 'lint rule fragile failed: oops' })]);
  });

  it('checks a graph again only when the answer could differ (a run re-validates what its loader validated)', () => {
    let calls = 0;
    const counting: LintRule = {
      name: 'counting',
      apply() {
        calls++;
        return [{ rule: 'counting', severity: 'warning', message: 'seen' }];
      },
    };
    // A graph that passed: the same built-in warnings again, a custom rule still runs.
    const g = graph(pipeline('  a\n  start -> a -> exit'));
    expect(validate(g, { extraRules: [counting] }).map((x) => x.rule)).toEqual(['prompt_on_llm_nodes', 'counting']);
    expect(validateOrRaise(g).map((x) => x.rule)).toEqual(['prompt_on_llm_nodes']);
    validate(g, { extraRules: [counting] });
    expect(calls).toBe(2);

    // Passed with a custom handler type known; without it, the type is reported again.
    const custom = graph(pipeline('  a [type="mine"]\n  start -> a -> exit'));
    expect(validate(custom, { knownHandlerTypes: ['mine'] })).toEqual([]);
    expect(byRule(validate(custom), 'type_known')).toHaveLength(1);
    expect(() => validateOrRaise(custom)).toThrow(ValidationError);
    expect(validateOrRaise(custom, { knownHandlerTypes: ['mine', 'other'] })).toEqual([]);

    // A graph edited in place (graphs are meant to be immutable) is checked again.
    const edited = graph(valid);
    expect(validate(edited)).toEqual([]);
    (edited.nodes as Map<string, unknown>).set('stray', { id: 'stray', attributes: {}, origins: {}, subgraphClasses: [] });
    expect(byRule(validate(edited), 'reachability')).toHaveLength(1);
  });
});

describe("orchestra's extra lint rules", () => {
  it('attribute_name: warns about near-misses of known attributes, not about other Graphviz attributes', () => {
    const src = pipeline(
      '  a [promt="x", max_retry=2, color=red, xlabel="side", fontname="Helvetica"]\n  start -> a\n  a -> exit [conditon="outcome=success", lable="go"]\n  defualt_max_retries=1',
    );
    const d = byRule(validate(graph(src)), 'attribute_name');
    expect(d.map((x) => [x.severity, x.message, x.fix])).toEqual([
      ['warning', 'graph: unknown attribute "defualt_max_retries"; it is ignored', 'did you mean "default_max_retries"?'],
      ['warning', 'node a: unknown attribute "promt"; it is ignored', 'did you mean "prompt"?'],
      ['warning', 'node a: unknown attribute "max_retry"; it is ignored', 'did you mean "max_retries"?'],
      ['warning', 'edge a -> exit: unknown attribute "conditon"; it is ignored', 'did you mean "condition"?'],
      ['warning', 'edge a -> exit: unknown attribute "lable"; it is ignored', 'did you mean "label"?'],
    ]);
    expect(d[1]?.location).toEqual({ file: 'test.dot', line: 4, column: 6 });
    // A typo in a default block is reported once, where it is written.
    const defaults = byRule(validate(graph(pipeline('  node [promtp="x"]\n  a\n  b\n  start -> a -> b -> exit'))), 'attribute_name');
    expect(defaults.map((x) => [x.message, x.location?.line])).toEqual([['node [...] defaults: unknown attribute "promtp"; it is ignored', 4]]);
  });

  it('condition_value: warns when outcome is compared with a value it never has', () => {
    const src = pipeline('  a [prompt="x"]\n  start -> a\n  a -> exit [condition="outcome=sucess"]\n  a -> a [condition="context.x=1 && outcome!=FAIL"]\n  a -> exit [condition="outcome=partial_success"]');
    const d = byRule(validate(graph(src)), 'condition_value');
    expect(d.map((x) => [x.severity, x.message, x.fix])).toEqual([
      ['warning', 'edge a -> exit: outcome is never "sucess", so the clause "outcome=sucess" never holds', 'did you mean outcome=success?'],
      ['warning', 'edge a -> a: outcome is never "FAIL", so the clause "outcome!=FAIL" always holds', 'did you mean outcome!=fail?'],
    ]);
    expect(d[1]?.location).toEqual({ file: 'test.dot', line: 7, column: 37 });
  });
});
