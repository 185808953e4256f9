import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { sortDiagnostics } from '../diagnostics/diagnostic.js';
import { hasLlmStages } from '../graph/handler-types.js';
import type { Graph } from '../graph/model.js';
import type { CodergenBackend } from '../handlers/codergen-backend.js';
import type { Handler } from '../engine/handler.js';
import { simulationBackend } from '../handlers/simulation-backend.js';
import { checkOutputFiles } from '../pipeline/output-files.js';
import type { RecordedRunOptions } from '../run/recorded-run-options.js';
import { TOOL_BACKENDS, commandUses } from './command-uses.js';
import { RunRefusal } from './run-refusal.js';

/** What a run is about to be started or resumed with, for a {@link RunSetupHook} to check and equip. */
export interface RunSetupRequest {
  graph: Graph;
  /** The pipeline's file name, for messages (`<id>/pipeline.dot` for a resume). */
  file: string;
  /** The pipeline's diagnostics (warnings; a start only), for an error that lists them with its own. */
  diagnostics: readonly Diagnostic[];
  /** How the run is to behave (a start: as asked; a resume: as the run recorded it). */
  options: RecordedRunOptions;
  how: 'start' | 'resume';
}

/** What a run's LLM stages call, and handlers of its own node types. */
export interface RunSetup {
  backend?: CodergenBackend;
  /**
   * Handlers by type, registered besides the built-ins (a recipe run's
   * `recipe.tool` and `recipe.agent` nodes, say). They replace a built-in of
   * the same type.
   */
  handlers?: Readonly<Record<string, Handler>>;
}

/** Checks a run about to start or resume (throwing a {@link RunRefusal} to refuse it) and gives what it needs. */
export type RunSetupHook = (request: RunSetupRequest) => Promise<RunSetup>;

/** What a run asks of its model: a model (or alias), and when resuming a run the CLI started, the endpoint and backend it recorded. */
export interface BackendRequest {
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/**
 * What a run's LLM stages call, for a run that is not simulated: from the
 * front end's configuration (orchestra.yaml, `--model`). Without
 * `allowTools` it must not give models tools (the `chat` backend).
 */
export type BackendFactory = (graph: Graph, request: BackendRequest) => Promise<CodergenBackend | undefined>;

/** Options of {@link guardedSetup}. */
export interface GuardedSetupOptions {
  /** Accept pipelines that run commands or read files (tool nodes, sub-pipelines, tool hooks, agent tools, named files). */
  allowTools?: boolean;
  /** The LLM backend of runs that are not simulated; without one such runs are refused (`ORCH_NO_BACKEND`). */
  backendFor?: BackendFactory;
  /** Where tool commands run: files a phased stage names are read from here. */
  workdir?: string;
}

/** A pipeline refused for its diagnostics, with them (each with its location) in `details.diagnostics`. */
export function invalidPipeline(file: string, diagnostics: readonly Diagnostic[]): RunRefusal {
  const sorted = sortDiagnostics(diagnostics);
  const errors = sorted.filter((d) => d.severity === 'error').length;
  return new RunRefusal('ORCH_INVALID_PIPELINE', `${file} is not a valid pipeline (${errors} error${errors === 1 ? '' : 's'}); nothing was run`, { file, diagnostics: sorted });
}

/** Refuses a pipeline that runs commands or reads files, unless tools are allowed. */
function refuseCommands(graph: Graph, file: string): void {
  const uses = commandUses(graph);
  if (uses.length === 0) return;
  throw new RunRefusal(
    'ORCH_TOOLS_REFUSED',
    `${file} runs commands, gives models tools or reads files on the server (${uses.map((u) => u.what).join(', ')}); this server refuses such pipelines unless it is started with --allow-tools`,
    { uses: uses.map((u) => ({ node_id: u.nodeId, what: u.what, file, line: u.line, column: u.column })) },
  );
}

/**
 * The setup of front ends that run pipelines for somebody else (the server,
 * a chat, an MCP client): pipelines that run commands or read files are
 * refused unless `allowTools` (and a run started elsewhere is held to the
 * same rule when it is resumed here); with `allowTools`, files a phased stage
 * names must be there before the run starts. Simulated runs get the
 * simulation; others `backendFor`'s backend, never one that gives models
 * tools unless `allowTools`.
 */
export function guardedSetup(options: GuardedSetupOptions): RunSetupHook {
  return async ({ graph, file, diagnostics, options: recorded, how }) => {
    if (options.allowTools) {
      if (how === 'start') {
        const files = await checkOutputFiles(graph, join(options.workdir ?? process.cwd(), file));
        if (files.some((d) => d.severity === 'error')) throw invalidPipeline(file, [...diagnostics, ...files]);
      }
    } else refuseCommands(graph, file);
    if (recorded.simulate) {
      if (recorded.model !== undefined && how === 'start') throw new RunRefusal('ORCH_BAD_REQUEST', 'give model or simulate, not both (a simulated run calls no model)');
      return { backend: simulationBackend };
    }
    if (!hasLlmStages(graph)) return {};
    if (!options.backendFor) {
      throw new RunRefusal(
        'ORCH_NO_BACKEND',
        `${graph.name} has LLM stages and this server has no model configured (orchestra.yaml next to where it was started, or --model); submit with "simulate": true to try it with simulated responses`,
      );
    }
    if (recorded.backend !== undefined && TOOL_BACKENDS.has(recorded.backend) && !options.allowTools) {
      throw new RunRefusal('ORCH_TOOLS_REFUSED', `the run was started with the ${recorded.backend} backend, which gives models tools on this machine (files, commands); this server refuses it unless started with --allow-tools`);
    }
    const request: BackendRequest = {
      ...(recorded.model ? { model: recorded.model } : {}),
      ...(recorded.base_url ? { baseUrl: recorded.base_url } : {}),
      ...(recorded.backend ? { backend: recorded.backend } : {}),
    };
    const backend = await options.backendFor(graph, request);
    return backend ? { backend } : {};
  };
}

/** The setup when none is given: simulated runs get the simulation; others must not need a model. */
export const plainSetup: RunSetupHook = async ({ options }) => (options.simulate ? { backend: simulationBackend } : {});

