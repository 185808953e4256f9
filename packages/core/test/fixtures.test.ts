import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIXTURES_DIR, fixturePath } from './helpers.js';
import { loadPipelineFile, PipelineReadError } from '../src/index.js';

const valid = readdirSync(FIXTURES_DIR).filter((f) => f.endsWith('.dot'));

describe('fixtures', () => {
  it.each(valid)('%s loads with no error diagnostics', async (name) => {
    const result = await loadPipelineFile(fixturePath(name));
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.ok).toBe(true);
  });

  it.each([
    ['syntax-error.dot', ['syntax']],
    ['missing-start.dot', ['start_node']],
    ['lint-errors.dot', ['reachability', 'start_no_incoming', 'exit_no_outgoing', 'condition_syntax', 'attribute_value', 'attribute_value']],
    ['bad-stylesheet.dot', ['stylesheet_syntax']],
    ['undirected.dot', ['dialect']],
    ['two-graphs.dot', ['dialect']],
  ])('invalid/%s reports %j', async (name, rules) => {
    const result = await loadPipelineFile(fixturePath(`invalid/${name}`));
    expect(result.ok).toBe(false);
    expect(result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(rules);
  });

  it('invalid/warnings.dot warns, and its unknown type is an error (type_known)', async () => {
    const result = await loadPipelineFile(fixturePath('invalid/warnings.dot'));
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => [d.rule, d.severity])).toEqual([
      ['type_known', 'error'],
      ['fidelity_valid', 'warning'],
      ['retry_target_exists', 'warning'],
      ['prompt_on_llm_nodes', 'warning'],
    ]);
  });

  it('dialect.dot exercises the whole dialect', async () => {
    const { graph } = await loadPipelineFile(fixturePath('dialect.dot'));
    const implement = graph!.nodes.get('implement')!;
    expect(implement.attributes).toMatchObject({
      thread_id: 'loop-a',
      timeout: '30m',
      llm_model: 'claude-sonnet-4.5',
      reasoning_effort: 'medium',
      prompt: 'Line one\nline two, with a // slash and a /* star */ and "quotes"',
    });
    expect(graph!.nodes.get('plan')!.attributes.prompt).toBe('Plan toward: Exercise the dialect: $goal stays literal in the goal itself');
    expect(graph!.nodes.get('approve')!.attributes).toMatchObject({ 'human.default_choice': 'exit', 'human.timeout': '15m' });
    expect(graph!.attributes['tool_hooks.pre']).toBe('echo pre');
    expect(graph!.edges.find((e) => e.from === 'check' && e.to === 'run_tool')!.attributes).toEqual({
      weight: '3',
      condition: 'outcome=success && context.ready=true',
    });
  });

  it('rejects an unreadable file with a stable code', async () => {
    await expect(loadPipelineFile(fixturePath('does-not-exist.dot'))).rejects.toMatchObject({
      code: 'ORCH_READ',
      message: expect.stringContaining('no such file'),
    });
    await expect(loadPipelineFile(fixturePath('does-not-exist.dot'))).rejects.toBeInstanceOf(PipelineReadError);
  });
});
