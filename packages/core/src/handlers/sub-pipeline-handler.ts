import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { Handler, HandlerInput } from '../engine/handler.js';
import type { JsonValue, Outcome } from '../engine/outcome.js';
import type { RunResult } from '../engine/run-result.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { AnswerLater } from '../engine/answer-later.js';
import { readPendingQuestions } from '../engine/store/pending-questions.js';
import { loadPipeline } from '../pipeline/pipeline-loader.js';
import { childRunName } from './child-run-name.js';

/** The handler type of a sub-pipeline node (`type="pipeline"`, an orchestra extension). */
export const SUB_PIPELINE_TYPE = 'pipeline';

/** The context key holding the pipeline files a sub-pipeline was started from, outermost first (cycle guard). */
export const PIPELINE_STACK_KEY = 'internal.pipeline.stack';

/** Names a comma- or space-separated attribute lists. */
function keysOf(list: string | undefined): string[] {
  return (list ?? '').split(/[\s,]+/).filter((key) => key !== '');
}

/** The child's file: `pipeline=` relative to the parent pipeline's file (or the working directory when it has none). */
export function childPipelineFile(input: Pick<HandlerInput, 'node' | 'run' | 'workdir'>): string | undefined {
  const named = input.node.attributes.pipeline;
  if (!named) return undefined;
  if (isAbsolute(named)) return named;
  return resolve(input.run.sourceFile ? dirname(input.run.sourceFile) : input.workdir, named);
}

function stackOf(input: HandlerInput): string[] {
  const stack = input.context.get(PIPELINE_STACK_KEY);
  return Array.isArray(stack) ? stack.filter((f): f is string => typeof f === 'string') : [];
}

/** What the child run's end means for the node. */
function outcomeOf(result: RunResult, file: string, node: HandlerInput['node'], dir: string): Outcome {
  const outputs: Record<string, JsonValue> = {};
  for (const key of keysOf(node.attributes['pipeline.outputs'])) {
    if (key in result.context) outputs[key] = result.context[key] as JsonValue;
  }
  const notes = `sub-pipeline ${file}: ${result.completedNodes.length} node(s) run; its run directory: ${dir}`;
  if (result.status === 'success') return { status: 'success', contextUpdates: outputs, notes };
  return { status: 'fail', contextUpdates: outputs, failureReason: `sub-pipeline ${file} failed: ${result.failureReason ?? result.status}`, notes };
}

/**
 * A node that runs another pipeline as one step (spec §9.4; `type="pipeline"`,
 * `pipeline="child.dot"`): the keys named in `pipeline.inputs` go into the
 * child's context, those in `pipeline.outputs` come back; the node's outcome
 * is the child's. The child's run directory is `<stage>/run-<visit>`: a
 * resumed parent resumes the same child run (a finished one is not run
 * again), a later visit starts a new one. The child runs with the parent's
 * handlers, through {@link HandlerInput.children}.
 */
export function subPipelineHandler(): Handler {
  return {
    cannotRun: (node) => (node.attributes.pipeline ? undefined : `node ${node.id} has type "${SUB_PIPELINE_TYPE}" but no pipeline attribute naming the file to run`),
    async execute(input) {
      const { node, context, signal } = input;
      const file = childPipelineFile(input) as string;
      const stack = stackOf(input);
      const parent = input.run.sourceFile ? resolve(input.run.sourceFile) : undefined;
      if (stack.includes(file) || file === parent) {
        return { status: 'fail', failureReason: `sub-pipeline ${file} would run itself: ${[...stack, ...(parent ? [parent] : []), file].join(' -> ')}`, retryable: false };
      }
      let source: string;
      try {
        source = await readFile(file, 'utf8');
      } catch (error) {
        return { status: 'fail', failureReason: `cannot read the sub-pipeline ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`, retryable: false };
      }
      const store = input.children.store(childRunName('run', input));
      const dir = store.location;
      let result: RunResult;
      if (await store.exists()) {
        result = await input.children.resume(store, { signal, workdir: input.workdir });
      } else {
        const loaded = loadPipeline(source, { file, knownHandlerTypes: input.children.handlerTypes });
        if (!loaded.graph || hasErrors(loaded.diagnostics)) {
          const first = loaded.diagnostics.find((d) => d.severity === 'error');
          const at = first?.location ? `${first.location.file ?? file}:${first.location.line}:${first.location.column}: ` : '';
          return { status: 'fail', failureReason: `sub-pipeline ${file} is invalid: ${at}${first?.message ?? 'it does not parse'}`, retryable: false };
        }
        const initialContext: Record<string, unknown> = { [PIPELINE_STACK_KEY]: [...stack, ...(parent ? [parent] : [])] };
        for (const key of keysOf(node.attributes['pipeline.inputs'])) {
          const value = context.get(key);
          if (value !== undefined) initialContext[key] = value;
        }
        result = await input.children.start(store, { graph: loaded.graph, source, sourceFile: file, initialContext, signal, workdir: input.workdir });
      }
      if (result.status === 'parked') {
        // The child waits for a human: the parent parks with the child's questions. Answered on the
        // parent (`orchestra answer <parent run>`), they reach the child when the parent resumes it.
        const [first, ...others] = (await readPendingQuestions(store)).map((p) => p.question);
        if (first) throw new AnswerLater(first, others, result.parkedReason);
      }
      return outcomeOf(result, file, node, dir);
    },
  };
}
