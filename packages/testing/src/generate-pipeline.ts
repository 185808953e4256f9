/** Options of {@link generatePipeline}. */
export interface GeneratePipelineOptions {
  /** Number of stage nodes between start and exit. */
  nodes: number;
  /** Characters of prompt text per stage (default 120). */
  promptLength?: number;
  /** Add a conditional back-edge every this many stages (default 10; 0 for none). */
  branchEvery?: number;
}

/**
 * A large, valid pipeline as DOT text: a chain of codergen stages with
 * prompts, classes, timeouts, a model stylesheet and periodic conditional
 * branches, in the shape real pipelines have. Deterministic for given options.
 * About 200 bytes per stage with the defaults.
 */
export function generatePipeline(options: GeneratePipelineOptions): string {
  const { nodes, promptLength = 120, branchEvery = 10 } = options;
  const filler = 'Review the previous stage output carefully and continue the work toward $goal. '.repeat(
    Math.ceil(promptLength / 80) + 1,
  );
  const lines: string[] = [
    `digraph Generated${nodes} {`,
    '  graph [goal="Exercise the loader at scale", model_stylesheet="* { llm_model: model-a; } .fast { llm_model: model-b; } #s0 { reasoning_effort: low; }"]',
    '  node [shape=box, timeout="900s"]',
    '  start [shape=Mdiamond, label="Start"]',
    '  exit [shape=Msquare, label="Exit"]',
  ];
  for (let i = 0; i < nodes; i++) {
    const cls = i % 3 === 0 ? 'fast' : 'slow';
    lines.push(`  s${i} [label="Stage ${i}", class="${cls}", prompt="${filler.slice(0, promptLength)}", max_retries=1]`);
  }
  lines.push(`  start -> s0`);
  for (let i = 0; i + 1 < nodes; i++) {
    if (branchEvery > 0 && i > 0 && i % branchEvery === 0) {
      lines.push(`  s${i} -> s${i + 1} [condition="outcome=success", weight=1]`);
      lines.push(`  s${i} -> s${i - 1} [condition="outcome!=success"]`);
    } else {
      lines.push(`  s${i} -> s${i + 1}`);
    }
  }
  lines.push(`  s${nodes - 1} -> exit`, '}', '');
  return lines.join('\n');
}

/**
 * A linear pipeline of `nodes` LLM stages (`start -> s0 -> ... -> exit`), one
 * edge per statement: the shape the engine benchmark runs in simulation.
 */
export function generateLinearPipeline(nodes: number): string {
  const lines = [`digraph Linear${nodes} {`, '  graph [goal="Measure the engine"]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 0; i < nodes; i++) lines.push(`  s${i} [label="Stage ${i}", prompt="Do step ${i} of $goal"]`);
  lines.push('  start -> s0');
  for (let i = 0; i + 1 < nodes; i++) lines.push(`  s${i} -> s${i + 1}`);
  lines.push(`  s${nodes - 1} -> exit`, '}', '');
  return lines.join('\n');
}
