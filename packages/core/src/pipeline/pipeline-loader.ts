import { readFile } from 'node:fs/promises';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { parsePipelineSource } from '../dot/parse-pipeline-source.js';
import type { LintRule } from '../lint/lint-rule.js';
import { validate } from '../lint/validate.js';
import { BUILT_IN_TRANSFORMS } from '../transforms/built-in-transforms.js';
import type { Transform } from '../transforms/transform.js';
import type { CoreErrorCode } from '../error-codes.js';
import { OrchestraError } from '../errors.js';
import { pathProblem } from '../os/path-problem.js';
import { checkOutputFiles } from './output-files.js';
import { checkSubPipelines } from './sub-pipelines.js';
import type { LoadResult } from './load-result.js';

export type { LoadResult } from './load-result.js';


/** Options of {@link createPipelineLoader}. */
export interface PipelineLoaderOptions {
  /** Custom transforms, run after the built-ins in this order. */
  transforms?: readonly Transform[];
  /** Custom lint rules, run after the built-ins. */
  lintRules?: readonly LintRule[];
  /** Handler types registered besides the built-ins (for `type_known`). */
  knownHandlerTypes?: Iterable<string>;
}

/** Parses, transforms and validates pipelines; custom transforms and rules register on it. */
export interface PipelineLoader {
  /** Adds a transform; transforms run after the built-ins, in registration order. */
  registerTransform(transform: Transform): this;
  /** Adds a lint rule; it runs after the built-in rules. */
  registerLintRule(rule: LintRule): this;
  /** Loads DOT text. `file` names the source in diagnostics. Never throws on bad input. */
  load(source: string, file?: string): LoadResult;
  /** Reads and loads a file, and the files its sub-pipeline nodes name (their diagnostics, rule `sub_pipeline`). Rejects with `ORCH_READ` when the file cannot be read. */
  loadFile(path: string): Promise<LoadResult>;
}

/** Thrown when a pipeline file cannot be read. Code `ORCH_READ`. */
export class PipelineReadError extends OrchestraError<Extract<CoreErrorCode, 'ORCH_READ'>> {
  constructor(path: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const problem = code === 'EISDIR' || code === 'ENOTDIR' ? pathProblem(path, { kind: 'file', what: 'a pipeline file' }) : undefined;
    const reason = code === 'ENOENT' ? 'no such file' : (problem?.message ?? (cause as Error)?.message ?? String(cause));
    super('ORCH_READ', `cannot read ${path}: ${reason}`, { cause });
    this.name = 'PipelineReadError';
  }
}

/**
 * Creates a loader: `parse → transforms → validate` (spec §9.1). Built-in
 * transforms (model stylesheet, `$goal` expansion) run first, then custom ones
 * in registration order; a transform that throws becomes an error diagnostic.
 */
export function createPipelineLoader(options: PipelineLoaderOptions = {}): PipelineLoader {
  const transforms: Transform[] = [...(options.transforms ?? [])];
  const rules: LintRule[] = [...(options.lintRules ?? [])];
  const knownHandlerTypes = [...(options.knownHandlerTypes ?? [])];

  const loader: PipelineLoader = {
    registerTransform(transform) {
      transforms.push(transform);
      return this;
    },
    registerLintRule(rule) {
      rules.push(rule);
      return this;
    },
    load(source, file) {
      const parsed = parsePipelineSource(source, file);
      const diagnostics = parsed.diagnostics;
      let graph = parsed.graph;
      if (!graph) return { diagnostics, ok: false, source };
      for (const transform of [...BUILT_IN_TRANSFORMS, ...transforms]) {
        try {
          graph = transform.apply(graph);
        } catch (error) {
          diagnostics.push({
            rule: 'transform',
            severity: 'error',
            message: `transform ${transform.name} failed: ${error instanceof Error ? error.message : String(error)}`,
            ...(graph.location ? { location: graph.location } : {}),
          });
          return { graph, diagnostics, ok: false, source };
        }
      }
      for (const d of validate(graph, { extraRules: rules, knownHandlerTypes })) diagnostics.push(d);
      return { graph, diagnostics, ok: !hasErrors(diagnostics), source };
    },
    async loadFile(path) {
      let source: string;
      try {
        source = await readFile(path, 'utf8');
      } catch (error) {
        throw new PipelineReadError(path, error);
      }
      const loaded = loader.load(source, path);
      if (!loaded.graph) return loaded;
      // A file can name others (sub-pipelines): what running them would find wrong is found now.
      // So can a phased node (its output schema and checks).
      const children = [...(await checkSubPipelines(loaded.graph, path, (text, file) => loader.load(text, file))), ...(await checkOutputFiles(loaded.graph, path))];
      if (children.length === 0) return loaded;
      const diagnostics = [...loaded.diagnostics, ...children];
      return { ...loaded, diagnostics, ok: !hasErrors(diagnostics) };
    },
  };
  return loader;
}

/**
 * Loads DOT text with the built-in transforms and rules plus those in
 * `options`. Never throws on bad text: what is wrong comes back as
 * diagnostics, each with its `file:line:col`.
 *
 * @example
 * ```ts
 * import { formatDiagnostic, loadPipeline } from '@orchestra/core';
 *
 * const loaded = loadPipeline(
 *   `digraph Notes {
 *     start [shape=Mdiamond]
 *     exit  [shape=Msquare]
 *     draft [prompt="Draft the release notes for $goal"]
 *     start -> draft
 *     draft -> exit [condition="outcome=sucess"]
 *   }`,
 *   { file: 'notes.dot' },
 * );
 * console.log(loaded.ok, [...(loaded.graph?.nodes.keys() ?? [])].join(' '));
 * for (const diagnostic of loaded.diagnostics) console.log(formatDiagnostic(diagnostic, 'notes.dot'));
 * // Prints:
 * // true start exit draft
 * // notes.dot:6:31: warning [condition_value] edge draft -> exit: outcome is never "sucess", so the clause "outcome=sucess" never holds
 * //     fix: did you mean outcome=success?
 * ```
 */
export function loadPipeline(source: string, options: PipelineLoaderOptions & { file?: string } = {}): LoadResult {
  return createPipelineLoader(options).load(source, options.file);
}

/** Reads and loads a pipeline file. Rejects with {@link PipelineReadError} when unreadable. */
export function loadPipelineFile(path: string, options: PipelineLoaderOptions = {}): Promise<LoadResult> {
  return createPipelineLoader(options).loadFile(path);
}
