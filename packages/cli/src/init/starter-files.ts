/** What the starter project's `package.json` depends on. */
export interface StarterVersions {
  /** The `@orchestra/core` dependency: a tarball in `vendor/` (`file:vendor/orchestra-core-….tgz`), or what `--core` says. */
  core: string;
  /** The `@orchestra/cli` dependency (the `orchestra` command of the scripts and of `npx orchestra`): a tarball in `vendor/`. */
  cli: string;
  /** The `vitest` dependency. */
  vitest: string;
}

/** The starter pipeline: plan, implement, then a human review that approves or sends the work back. */
export const STARTER_PIPELINE = `// A starter pipeline: plan, implement, then a human review that approves the
// work or sends it back to implement. Try it (after npm install):
//   npx orchestra run pipeline.dot --simulate       (no model: simulated LLM replies)
//   OPENAI_API_KEY=... npx orchestra run pipeline.dot --model gpt-5.2
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 npx orchestra run pipeline.dot --model llama3.2
// Its tests (npm test) are in test/pipeline.test.ts.
digraph Starter {
    graph [goal="Write a haiku about version control", default_max_retries=1]

    start     [shape=Mdiamond]
    exit      [shape=Msquare]
    plan      [label="Plan", prompt="Write a short plan for: $goal"]
    implement [label="Implement", prompt="Carry out the plan for: $goal. Reply with the result only."]
    review    [shape=hexagon, label="Review the result"]

    start -> plan -> implement -> review
    review -> exit      [label="[A] Approve"]
    review -> implement [label="[R] Revise"]
}
`;

/** The starter `orchestra.yaml`: every section commented out but one, so the file is valid as written. */
export const STARTER_CONFIG = `# orchestra.yaml: how this project's LLM stages reach a model.
# Every section is optional; docs/models.md in the orchestra repository has every key.
# Without this file: OPENAI_API_KEY (or OPENAI_BASE_URL) and --model do the same.

# providers:
#   local:                                # an OpenAI-compatible server on this machine
#     base_url: http://127.0.0.1:11434/v1   # Ollama; llama.cpp, vLLM, LM Studio work too
#   openrouter:
#     base_url: https://openrouter.ai/api/v1
#     api_key_env: OPENROUTER_API_KEY     # the NAME of the variable, never the key

# models:
#   fast:
#     model: llama3.2
#     provider: local
#   smart:
#     model: anthropic/claude-sonnet-4.5
#     provider: openrouter

# defaults:
#   model: fast                           # stages that name no model (llm_model=...) use it

interviewer:
  timeout: 30m                            # a human gate waits this long at the terminal
`;

/** The starter test: the pipeline validated, then run with scripted answers and simulated LLM replies. */
export const STARTER_TEST = `import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { QueueInterviewer, loadPipelineFile, runPipeline, simulationBackend } from '@orchestra/core';

const PIPELINE = fileURLToPath(new URL('../pipeline.dot', import.meta.url));

/** Runs the pipeline with simulated LLM replies, answering the review gate from \`answers\` in order. */
async function runWith(answers: string[]) {
  const loaded = await loadPipelineFile(PIPELINE);
  if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\\n'));
  return runPipeline(loaded.graph, {
    backend: simulationBackend, // stands in for the model: no network, no key
    interviewer: new QueueInterviewer(answers), // the human, scripted: an option key or label per question
    logsRoot: join(mkdtempSync(join(tmpdir(), 'pipeline-test-')), 'run'),
  });
}

describe('pipeline.dot', () => {
  it('is valid: no errors, no warnings', async () => {
    const loaded = await loadPipelineFile(PIPELINE);
    expect(loaded.diagnostics.map((d) => \`\${d.severity} [\${d.rule}] \${d.message}\`)).toEqual([]);
  });

  it('ends when the reviewer approves', async () => {
    const result = await runWith(['A']);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'plan', 'implement', 'review', 'exit']);
  });

  it('goes back to implement when the reviewer asks for a revision', async () => {
    const result = await runWith(['R', 'Approve']);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'plan', 'implement', 'review', 'implement', 'review', 'exit']);
    expect(result.context['human.gate.label']).toBe('Approve');
  });
});
`;

/** The starter \`.gitignore\`: dependencies and run directories. */
export const STARTER_GITIGNORE = `node_modules/
.orchestra/
`;

/**
 * The `package.json` fields the starter project needs. The scripts' `orchestra`
 * is the project's own (`node_modules/.bin`, from `@orchestra/cli`).
 */
export function starterPackageFields(versions: StarterVersions): { scripts: Record<string, string>; devDependencies: Record<string, string> } {
  return {
    scripts: { test: 'vitest run', validate: 'orchestra validate pipeline.dot' },
    devDependencies: { '@orchestra/cli': versions.cli, '@orchestra/core': versions.core, vitest: versions.vitest },
  };
}

/** The `@orchestra/core` range an `orchestra init` that vendored nothing wrote: no registry has it. */
const UNPUBLISHED_RANGES: readonly string[] = ['^0.1.0'];

/**
 * Whether `spec` is a dependency on `name` that an earlier `orchestra init`
 * wrote, and a new one may replace: a tarball it put in `vendor/`, or a
 * registry range of a package that is not published.
 */
export function writtenByInit(name: string, spec: unknown): boolean {
  if (typeof spec !== 'string' || !name.startsWith('@orchestra/')) return false;
  const base = name.slice(1).replace('/', '-');
  if (spec.startsWith(`file:vendor/${base}-`) && spec.endsWith('.tgz')) return true;
  return name === '@orchestra/core' && UNPUBLISHED_RANGES.includes(spec);
}
