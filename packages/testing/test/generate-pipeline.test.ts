import { describe, expect, it } from 'vitest';
import { loadPipeline } from '@orchestra/core';
import { generatePipeline } from '../src/index.js';

describe('generatePipeline', () => {
  it('produces a valid pipeline with the requested number of stages', () => {
    const result = loadPipeline(generatePipeline({ nodes: 50 }));
    expect(result.diagnostics).toEqual([]);
    expect(result.graph?.nodes.size).toBe(52);
    expect(result.graph?.nodes.get('s0')?.attributes).toMatchObject({ llm_model: 'model-b', reasoning_effort: 'low' });
    expect(result.graph?.nodes.get('s1')?.attributes.llm_model).toBe('model-a');
  });

  it('is deterministic and about 200 bytes per stage', () => {
    const a = generatePipeline({ nodes: 1000 });
    expect(generatePipeline({ nodes: 1000 })).toBe(a);
    expect(a.length / 1000).toBeGreaterThan(150);
    expect(a.length / 1000).toBeLessThan(300);
  });

  it('adds conditional back-edges every branchEvery stages', () => {
    const g = loadPipeline(generatePipeline({ nodes: 25, branchEvery: 10 })).graph!;
    expect(g.edges.filter((e) => e.attributes.condition === 'outcome!=success').map((e) => `${e.from}->${e.to}`)).toEqual(['s10->s9', 's20->s19']);
  });
});
