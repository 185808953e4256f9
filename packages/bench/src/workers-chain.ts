/**
 * The workers benchmark's pipeline: `start -> n1 -> ... -> n<stages> -> exit`,
 * every `n<i>` an LLM stage with a prompt, run with `options: { simulate: true }`
 * (the simulation backend answers it: prompt.md, response.md and status.json
 * are written as in a real run).
 */
export function workersChain(stages: number): string {
  const lines = [`digraph Chain${stages} {`, '  graph [goal="Measure the workers"]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 1; i <= stages; i++) lines.push(`  n${i} [label="Stage ${i}", prompt="Do step ${i} of $goal"]`);
  const path = ['start', ...Array.from({ length: stages }, (_, i) => `n${i + 1}`), 'exit'];
  lines.push(`  ${path.join(' -> ')}`, '}', '');
  return lines.join('\n');
}
