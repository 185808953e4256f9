import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../src/index.js';

describe('large pipelines', () => {
  it('loads and validates a 10,000-node, 2 MB file that ts-graphviz defaults would refuse', () => {
    const prompt = 'Review the previous stage output carefully and continue the work toward $goal. '.repeat(2);
    const lines = ['digraph Big {', '  graph [goal="scale"]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
    for (let i = 0; i < 10_000; i++) lines.push(`  s${i} [label="Stage ${i}", class="c${i % 7}", timeout="900s", prompt="${prompt}"]`);
    lines.push('  start -> s0');
    for (let i = 0; i + 1 < 10_000; i++) lines.push(`  s${i} -> s${i + 1} [condition="outcome=success"]`);
    lines.push('  s9999 -> exit', '}');
    const source = lines.join('\n');
    expect(source.length).toBeGreaterThan(2_000_000);

    const result = loadPipeline(source, { file: 'big.dot' });
    expect(result.diagnostics).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.graph?.nodes.size).toBe(10_002);
    expect(result.graph?.edges).toHaveLength(10_001);
    expect(result.graph?.nodes.get('s9999')?.attributes.prompt).toContain('toward scale.');
    expect(result.graph?.nodes.get('s9999')?.location).toEqual({ file: 'big.dot', line: 10_004, column: 3 });
  });
});
