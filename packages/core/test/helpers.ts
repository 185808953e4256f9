import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { loadPipeline, type Diagnostic, type Graph, type LoadResult } from '../src/index.js';

/** Loads DOT text as `test.dot`. */
export function load(source: string): LoadResult {
  return loadPipeline(source, { file: 'test.dot' });
}

/** Loads DOT text and returns the graph, failing the test when there is none. */
export function graphOf(source: string): Graph {
  const result = load(source);
  expect(result.graph, JSON.stringify(result.diagnostics)).toBeDefined();
  return result.graph as Graph;
}

/** Diagnostics of one rule. */
export function byRule(diagnostics: readonly Diagnostic[], rule: string): Diagnostic[] {
  return diagnostics.filter((d) => d.rule === rule);
}

/** The node's attributes, failing when the node is missing. */
export function attrs(graph: Graph, id: string): Record<string, string> {
  const node = graph.nodes.get(id);
  expect(node, `node ${id}`).toBeDefined();
  return { ...node!.attributes };
}

/** A minimal valid pipeline around some extra statements. */
export function pipeline(body: string, name = 'P'): string {
  return `digraph ${name} {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n${body}\n}\n`;
}

/** Absolute path of a file under the repository's `fixtures/` (core does not depend on @orchestra/testing). */
export const FIXTURES_DIR = fileURLToPath(new URL('../../../fixtures/', import.meta.url));

/** Absolute path of a fixture. */
export function fixturePath(name: string): string {
  return `${FIXTURES_DIR}${name}`;
}

/** The text of a fixture. */
export function readFixture(name: string): string {
  return readFileSync(fixturePath(name), 'utf8');
}
