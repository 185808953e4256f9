import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Graph, GraphNode } from '../graph/model.js';
import type { LoadResult } from './load-result.js';

/** The rule name of the sub-pipeline checks. */
export const SUB_PIPELINE_RULE = 'sub_pipeline';

/** Loads one pipeline's text as the loader does (parse, transforms, rules), without following its sub-pipelines. */
export type LoadText = (source: string, file: string) => LoadResult;

function problem(node: GraphNode, message: string, fix?: string): Diagnostic {
  const location = node.origins.pipeline?.location ?? node.location;
  return { rule: SUB_PIPELINE_RULE, severity: 'error', message, nodeId: node.id, ...(location ? { location } : {}), ...(fix ? { fix } : {}) };
}

/**
 * What `run` would find wrong with the sub-pipelines (`type="pipeline"`
 * nodes) of a pipeline loaded from `file`, checked without running: a node
 * that names no file, a file that cannot be read, a chain of sub-pipelines
 * that comes back to one of its own files, and every diagnostic of each
 * child (with the child's file name), followed down to the last level. Each
 * file is read once.
 */
export async function checkSubPipelines(graph: Graph, file: string, loadText: LoadText, chain: readonly string[] = [resolve(file)], seen = new Map<string, LoadResult | string>()): Promise<Diagnostic[]> {
  const out: Diagnostic[] = [];
  for (const node of graph.nodes.values()) {
    if (node.attributes.type !== 'pipeline') continue;
    const named = node.attributes.pipeline;
    if (!named) {
      out.push(problem(node, `node ${node.id} has type "pipeline" but no pipeline attribute naming the file to run`, 'add pipeline="<file>.dot" (relative to this file)'));
      continue;
    }
    const child = isAbsolute(named) ? named : resolve(dirname(file), named);
    if (chain.includes(child)) {
      out.push(problem(node, `node ${node.id} runs ${named}, which is already running above it: ${[...chain, child].join(' -> ')}`, 'a pipeline cannot run itself, directly or through others'));
      continue;
    }
    let loaded = seen.get(child);
    if (loaded === undefined) {
      try {
        loaded = loadText(await readFile(child, 'utf8'), child);
      } catch (error) {
        loaded = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
      }
      seen.set(child, loaded);
      if (typeof loaded !== 'string') {
        out.push(...loaded.diagnostics);
        if (loaded.graph) out.push(...(await checkSubPipelines(loaded.graph, child, loadText, [...chain, child], seen)));
      }
    }
    if (typeof loaded === 'string') out.push(problem(node, `node ${node.id} runs ${named} (${child}), which ${loaded}`));
  }
  return out;
}
