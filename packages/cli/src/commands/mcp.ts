import { join, resolve } from 'node:path';
import { RunLauncher, createMcpServer, serveStdio } from '@orchestra/chat';
import { TOOL_BACKENDS } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { pathProblem } from '@orchestra/core/handlers';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { abortOnSignals } from '../interrupt.js';
import { modelFlags, runsModelFlags } from '../model-flags.js';
import { runBackendFactory } from '../run-backend-factory.js';
import { CLI_VERSION } from '../version.js';

/** Flags of `orchestra mcp`. */
export interface McpFlags {
  project?: string;
  simulate?: boolean;
  allowTools?: boolean;
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/**
 * `orchestra mcp`: an MCP server on stdin/stdout offering `launch_run`,
 * `run_status`, `list_runs`, `answer_question` and `cancel_run` over the
 * runs of `--project` (kept in `<project>/runs/`), and the `orchestrate`
 * prompt. Only protocol goes to stdout; messages go to stderr. When the
 * client goes away (stdin ends) or on SIGINT/SIGTERM, the runs it drives
 * stop at a safe point (each stays resumable) and it exits 0; 2 for bad
 * flags.
 */
export async function mcpCommand(flags: McpFlags, io: CliIO): Promise<number> {
  const models = modelFlags(flags);
  if (typeof models === 'string') {
    io.stderr(`orchestra: ${models}\n`);
    return ExitCode.usage;
  }
  if (flags.backend !== undefined && !flags.allowTools && TOOL_BACKENDS.has(flags.backend)) {
    io.stderr(`orchestra: --backend ${flags.backend} lets models run commands on this machine: add --allow-tools to offer it\n`);
    return ExitCode.usage;
  }
  const projectDir = resolve(flags.project ?? '.');
  const problem = pathProblem(projectDir, { kind: 'directory', what: 'a directory' });
  if (problem) {
    io.stderr(`orchestra: --project ${escapeControl(problem.message)}\n`);
    return ExitCode.usage;
  }

  // stdout carries the protocol alone: whatever a library prints goes to stderr.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;

  // As `orchestra serve`: models get no tools unless tools are allowed (the chat backend, whatever orchestra.yaml prefers).
  // orchestra.yaml is looked up in the project (then the working directory and ~/.orchestra/), wherever the client starts us.
  // --model fills in the stages that name no model: the agents a launch_run names keep theirs.
  const backendFor = runBackendFactory(runsModelFlags(models), flags.allowTools === true, join(projectDir, 'pipeline.dot'));

  const launcher = new RunLauncher({
    projectDir,
    ...(flags.simulate ? { simulate: true } : {}),
    ...(flags.allowTools ? { allowTools: true } : {}),
    backendFor,
  });
  const server = createMcpServer(launcher, { version: CLI_VERSION });

  let stopping: (why: string) => void = () => {};
  const stopped = new Promise<string>((resolveStop) => (stopping = resolveStop));
  const interrupt = abortOnSignals(
    () => process.exit(ExitCode.interrupted),
    (signal) => stopping(`received ${signal}`),
  );
  const serving = await serveStdio(server);
  if (flags.allowTools) io.stderr('orchestra: warning: --allow-tools: launched pipelines may run shell commands on this machine\n');
  io.stderr(`orchestra: MCP server on stdio for ${projectDir} (runs in ${join(projectDir, 'runs')}${flags.simulate ? ', simulated' : ''})\n`);

  const why = await Promise.race([serving.ended, stopped]);
  io.stderr(`orchestra: ${why}; stopping: runs waiting for an answer park with their questions, the others stop at a safe point; all stay resumable...\n`);
  try {
    await launcher.close();
  } finally {
    await serving.close().catch(() => {});
    interrupt.dispose();
  }
  // stdin may still hold the process open (a signal came while the client was connected).
  process.stdin.destroy();
  return ExitCode.ok;
}
