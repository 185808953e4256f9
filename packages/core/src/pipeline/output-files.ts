import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Graph, GraphNode } from '../graph/model.js';

/** The rule name of the checks on a phased node's files. */
export const OUTPUT_FILES_RULE = 'output_files';

/**
 * What a run would find wrong with the files a phased LLM node names
 * (`output.schema`, `output.checks`), checked without running: a file that
 * is missing or unreadable, text that is not JSON, and a schema that does
 * not describe an object (the finalization tool's arguments are one), and
 * `output.sections` that do not name each top-level property of the schema
 * exactly once.
 * Paths are relative to the pipeline's directory; `zod:<name>` schemas are
 * registered in code and not checked here. Each file is read once.
 */
export async function checkOutputFiles(graph: Graph, file: string): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  const read = new Map<string, Promise<unknown>>();
  const json = (path: string) => {
    let pending = read.get(path);
    if (!pending) {
      pending = readFile(path, 'utf8').then(
        (text) => {
          try {
            return JSON.parse(text) as unknown;
          } catch (error) {
            return new Error(`is not valid JSON: ${(error as Error).message}`);
          }
        },
        (error: NodeJS.ErrnoException) => new Error(error.code === 'ENOENT' ? 'does not exist' : `cannot be read (${error.message})`),
      );
      read.set(path, pending);
    }
    return pending;
  };
  for (const node of graph.nodes.values()) {
    for (const key of ['output.schema', 'output.checks'] as const) {
      const named = node.attributes[key]?.trim();
      if (!named || (key === 'output.schema' && named.startsWith('zod:'))) continue;
      const path = isAbsolute(named) ? named : resolve(dirname(file), named);
      const value = await json(path);
      if (value instanceof Error) out.push(problem(node, key, `node ${node.id}: ${key} ${named} (${path}) ${value.message}`));
      else if (typeof value !== 'object' || value === null || Array.isArray(value)) out.push(problem(node, key, `node ${node.id}: ${key} ${named} does not hold a JSON object`));
      else if (key === 'output.schema' && (value as { type?: unknown }).type !== 'object' && !('properties' in value && (value as { type?: unknown }).type === undefined)) {
        out.push(problem(node, key, `node ${node.id}: output.schema ${named} must describe an object (type "object"), as a tool's arguments are`));
      } else if (key === 'output.schema') {
        const sections = sectionsProblem(node, value as { properties?: unknown }, named);
        if (sections) out.push(problem(node, 'output.sections', sections));
      }
    }
  }
  return out;
}

/** What is wrong with `output.sections` against the schema's top-level properties: each named once, none left out. */
function sectionsProblem(node: GraphNode, schema: { properties?: unknown }, named: string): string | undefined {
  const names = (node.attributes['output.sections'] ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) return undefined;
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined) return `node ${node.id}: output.sections names ${JSON.stringify(twice)} twice`;
  const unknown = names.find((n) => !properties.includes(n));
  if (unknown !== undefined) return `node ${node.id}: output.sections names ${JSON.stringify(unknown)}, which is no top-level property of ${named} (it has ${properties.map((p) => JSON.stringify(p)).join(', ') || 'none'})`;
  const left = properties.filter((p) => !names.includes(p));
  if (left.length > 0) return `node ${node.id}: output.sections leaves out ${left.map((p) => JSON.stringify(p)).join(', ')}: every top-level property of ${named} belongs to a section`;
  return undefined;
}

function problem(node: GraphNode, key: string, message: string): Diagnostic {
  const location = node.origins[key]?.location ?? node.location;
  return { rule: OUTPUT_FILES_RULE, severity: 'error', message, nodeId: node.id, ...(location ? { location } : {}) };
}
