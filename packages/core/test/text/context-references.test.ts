import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { expandContextReferences } from '../../src/handlers.js';
import { dot, run, useTempDirs } from '../engine/engine-helpers.js';

useTempDirs();

const CONTEXT = {
  'thread_design.output': { threads: [{ thread_id: 't_heist', title: 'The heist' }, { thread_id: 't_betrayal', title: 'The betrayal' }], premise: 'A vault, a crew.' },
  tags: ['noir', 'caper'],
  count: 3,
};

describe('{{path}} references in prompts', () => {
  it('inserts strings as they are, lists one per line, objects as JSON, and every value a [] path reaches', () => {
    const { text, unresolved } = expandContextReferences(
      'Premise: {{thread_design.output.premise}}\nIds:\n{{ thread_design.output.threads[].thread_id }}\nTags:\n{{tags}}\nCount {{count}}.\nFirst: {{thread_design.output.threads}}',
      CONTEXT,
    );
    expect(unresolved).toEqual([]);
    expect(text).toBe(
      'Premise: A vault, a crew.\nIds:\nt_heist\nt_betrayal\nTags:\nnoir\ncaper\nCount 3.\nFirst: {"thread_id":"t_heist","title":"The heist"}\n{"thread_id":"t_betrayal","title":"The betrayal"}',
    );
  });

  it('leaves a reference that names no context key as written, and reports it', () => {
    expect(expandContextReferences('Use {{missing.key}} and {{ not a path }} and {{count}}', CONTEXT)).toEqual({ text: 'Use {{missing.key}} and {{ not a path }} and 3', unresolved: ['missing.key'] });
  });

  it('reaches the prompt an LLM stage is sent (prompt.md), after $goal', async () => {
    const source = dot('  a [prompt="For $goal, pick from:\\n{{ideas[]}}"]\n  start -> a -> exit', 'P', 'goal="the launch"');
    const { logsRoot } = await run(source, { initialContext: { ideas: ['rocket', 'balloon'] } });
    expect(readFileSync(`${logsRoot}/a/prompt.md`, 'utf8')).toBe('For the launch, pick from:\nrocket\nballoon');
  });
});
