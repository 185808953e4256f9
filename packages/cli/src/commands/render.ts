import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { isOrchestraError } from '@orchestra/core';
import { escapeControl, sortDiagnostics } from '@orchestra/core/loader';
import { pathProblem } from '@orchestra/core/handlers';
import { readCheckpoint } from '@orchestra/core/store';
import { nodeStates, pictureLayout, renderPipelineSvg } from '@orchestra/server';
import { ExitCode } from '../exit-codes.js';
import { formatDiagnostic } from '../format-diagnostics.js';
import type { CliIO } from '../io.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { loadPipelineFile } from '@orchestra/core/loader';
import { isRecipeGraph } from '../recipe-extension.js';

/** Flags of `orchestra render`. */
export interface RenderCommandOptions {
  /** Where to write the SVG (default: stdout). */
  output?: string;
  /** A run directory whose state is drawn on the picture. */
  run?: string;
}

/**
 * `orchestra render <file> [-o file.svg] [--run <logs-dir>]`: an SVG picture
 * of the pipeline (Graphviz in WebAssembly: no Graphviz install needed),
 * with a run's node states when `--run` is given, laid out by the pipeline's
 * layout attributes (`rankdir`, ...; one warning on stderr per value that
 * cannot be used). Exit 0; 1 for an invalid
 * pipeline (its diagnostics on stderr); 2 for a file or run directory that
 * cannot be read or an output that cannot be written.
 */
export async function renderCommand(file: string, options: RenderCommandOptions, io: CliIO): Promise<number> {
  let loaded = await loadForCommand(file, io);
  if (!loaded) return ExitCode.usage;
  // A compiled recipe (or a recipe run's pipeline.dot) has node types of its own: loaded again knowing them.
  if (loaded.graph && isRecipeGraph(loaded.graph)) {
    const { RECIPE_HANDLER_TYPES } = await import('@orchestra/recipes');
    loaded = await loadPipelineFile(file, { knownHandlerTypes: RECIPE_HANDLER_TYPES });
  }
  if (!loaded.ok || !loaded.graph) {
    for (const d of sortDiagnostics(loaded.diagnostics)) io.stderr(`${formatDiagnostic(d, file)}\n`);
    io.stderr(`orchestra: ${escapeControl(file)} is not a valid pipeline; nothing was drawn\n`);
    return ExitCode.failed;
  }
  // Layout attributes the picture cannot use are left out, with a warning each.
  for (const d of pictureLayout(loaded.graph).problems) io.stderr(`${formatDiagnostic(d, file)}\n`);
  let states;
  if (options.run !== undefined) {
    const runDir = resolve(options.run);
    const problem = pathProblem(runDir, { kind: 'directory', what: 'a run directory' });
    if (problem) {
      io.stderr(`orchestra: --run ${escapeControl(problem.message)}\n`);
      return ExitCode.usage;
    }
    try {
      states = nodeStates(loaded.graph, readCheckpoint(runDir));
    } catch (error) {
      if (!isOrchestraError(error)) throw error;
      io.stderr(`orchestra: --run: ${escapeControl(error.message)}\n`);
      return ExitCode.usage;
    }
  }
  const svg = await renderPipelineSvg(loaded.graph, states);
  if (options.output === undefined) {
    io.stdout(svg);
    return ExitCode.ok;
  }
  try {
    await writeFile(options.output, svg);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    const problem = e.code === 'EISDIR' || e.code === 'ENOTDIR' || e.code === 'ENOENT' ? pathProblem(resolve(options.output), { kind: 'file', what: 'a file' }) : undefined;
    io.stderr(`orchestra: cannot write ${escapeControl(options.output)}: ${escapeControl(problem?.message ?? e.message)}\n`);
    return ExitCode.usage;
  }
  return ExitCode.ok;
}
