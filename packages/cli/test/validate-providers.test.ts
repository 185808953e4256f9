import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** `validate` warns when a node names a provider that is neither built in nor configured (`known_provider`). */

const PIPELINE = `digraph P {
  graph [model_stylesheet="#review { llm_provider: vertex; }"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  draft [prompt="Draft", llm_provider=mistral, llm_model="mistral-large"]
  claude [prompt="Claude", llm_provider=anthropic]
  review [prompt="Review"]
  local [prompt="Local", llm_provider=openai]
  start -> draft -> review -> local -> claude -> exit
}
`;

function project(config?: string): string {
  const dir = tempDir();
  writeFileSync(join(dir, 'pipeline.dot'), PIPELINE);
  if (config !== undefined) writeFileSync(join(dir, 'orchestra.yaml'), config);
  return dir;
}

describe('validate: providers a pipeline names', () => {
  it('warns at the node for each provider neither built in nor configured, as written or set by the stylesheet; still valid', async () => {
    const dir = project();
    const result = await cliWith(['validate', 'pipeline.dot'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('pipeline.dot:5:3: warning [known_provider] node draft: llm_provider="mistral" names a provider that is neither built in nor configured (no orchestra.yaml applies to this pipeline); a run stops at this node unless providers.mistral is added to orchestra.yaml');
    expect(result.stdout).toMatch(/warning \[known_provider\] node review: llm_provider="vertex"/);
    // Built in: openai, anthropic, gemini, ollama.
    expect(result.stdout).not.toMatch(/node (local|claude):/);
  });

  it('says nothing of providers orchestra.yaml configures, and names the file and the known ones otherwise', async () => {
    const dir = project('providers:\n  mistral:\n    base_url: http://127.0.0.1:9/v1\n');
    const result = await cliWith(['validate', 'pipeline.dot', '--json'], { cwd: dir });
    expect(result.code).toBe(0);
    const diagnostics = JSON.parse(result.stdout) as { rule: string; node_id?: string; message: string }[];
    const providers = diagnostics.filter((d) => d.rule === 'known_provider');
    expect(providers.map((d) => d.message)).toEqual([expect.stringContaining(`node review: llm_provider="vertex" names a provider that is neither built in nor configured in ${join(dir, 'orchestra.yaml')} (known: openai, anthropic, gemini, ollama, mistral)`)]);
  });
});

describe("validate's built-in providers", () => {
  it('are the ones @orchestra/llm builds in (the start-up bundle keeps its own list)', async () => {
    const { knownProviders, emptyConfig } = await import('@orchestra/llm/config');
    const { needsConfigCheck } = await import('../src/config-needs.js');
    const { loadPipeline } = await import('@orchestra/core/loader');
    for (const name of knownProviders(emptyConfig('/').config)) {
      const { graph } = loadPipeline(`digraph G { start [shape=Mdiamond] exit [shape=Msquare] a [prompt="x", llm_provider=${name}] start -> a -> exit }`);
      expect(needsConfigCheck(graph!), name).toBe(false);
    }
  });
});
