import { createDefaultRegistry, type Graph, type GraphEdge, type GraphNode, type Handler, type HandlerRegistry } from '@orchestra/core';

/** The custom handler type of the store benchmark's nodes: no backend, no files of its own. */
export const BENCH_STEP_TYPE = 'bench.step';

/**
 * The cheapest useful node: returns success with a one-key context update
 * (`{ i: n }`, n from the node id `s<n>` or `b<n>`), as the LangGraph nodes
 * return `{ i: n }`. Everything else per node is the engine's and the store's.
 */
export const benchStepHandler: Handler = {
  execute: ({ node }) => ({ status: 'success', contextUpdates: { i: Number(node.id.slice(1)) } }),
};

/** The built-in handlers (start, exit, parallel, fan-in, ...) plus {@link benchStepHandler}. */
export function benchRegistry(): HandlerRegistry {
  return createDefaultRegistry().register(BENCH_STEP_TYPE, benchStepHandler);
}

function node(id: string, attributes: Record<string, string>): GraphNode {
  return { id, attributes, origins: {}, subgraphClasses: [] };
}

function edge(from: string, to: string): GraphEdge {
  return { from, to, attributes: {}, origins: {} };
}

function graphOf(name: string, nodes: GraphNode[], edges: GraphEdge[]): Graph {
  return { name, attributes: { goal: 'Measure the run store' }, origins: {}, nodes: new Map(nodes.map((n) => [n.id, n])), edges };
}

/**
 * `start -> s0 -> ... -> s<n-1> -> exit`, every `s<i>` of type
 * {@link BENCH_STEP_TYPE}. Built in code, not parsed: the DOT text of a
 * 100,000-node chain takes the parser far more memory than the run itself
 * (the loader benchmark covers parsing). `runPipeline` validates it like a
 * loaded graph (its plan step runs every lint rule).
 */
export function chainGraph(n: number): Graph {
  const nodes = [node('start', { shape: 'Mdiamond' }), node('exit', { shape: 'Msquare' })];
  const edges: GraphEdge[] = [edge('start', 's0')];
  for (let i = 0; i < n; i++) {
    nodes.push(node(`s${i}`, { type: BENCH_STEP_TYPE }));
    edges.push(edge(`s${i}`, i + 1 < n ? `s${i + 1}` : 'exit'));
  }
  return graphOf(`Chain${n}`, nodes, edges);
}

/**
 * `start -> fan` (`shape=component`, the parallel handler) `-> b0 ... b<k-1>`
 * (one {@link BENCH_STEP_TYPE} node per branch) `-> join`
 * (`shape=tripleoctagon`, the fan-in handler) `-> exit`.
 */
export function fanOutGraph(k: number): Graph {
  const nodes = [node('start', { shape: 'Mdiamond' }), node('fan', { shape: 'component' }), node('join', { shape: 'tripleoctagon' }), node('exit', { shape: 'Msquare' })];
  const edges: GraphEdge[] = [edge('start', 'fan')];
  for (let i = 0; i < k; i++) {
    nodes.push(node(`b${i}`, { type: BENCH_STEP_TYPE }));
    edges.push(edge('fan', `b${i}`));
  }
  for (let i = 0; i < k; i++) edges.push(edge(`b${i}`, 'join'));
  edges.push(edge('join', 'exit'));
  return graphOf(`FanOut${k}`, nodes, edges);
}

/** The same chain as DOT text (what `orchestra run` would load), for checking that {@link chainGraph} matches a parsed pipeline. */
export function chainDot(n: number): string {
  const lines = [`digraph Chain${n} {`, '  graph [goal="Measure the run store"]', '  start [shape=Mdiamond]', '  exit [shape=Msquare]'];
  for (let i = 0; i < n; i++) lines.push(`  s${i} [type="${BENCH_STEP_TYPE}"]`);
  lines.push(`  start -> s0`);
  for (let i = 0; i < n; i++) lines.push(`  s${i} -> ${i + 1 < n ? `s${i + 1}` : 'exit'}`);
  lines.push('}', '');
  return lines.join('\n');
}
