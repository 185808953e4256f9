import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handler, HandlerInput } from '../engine/handler.js';
import type { Outcome } from '../engine/outcome.js';
import { toolEnvironment } from './tool-environment.js';
import { runToolProcess, type ProcessStarter } from './tool-process.js';

export { KILL_GRACE_MS } from './tool-process.js';

/** Most stdout kept for `tool.output`, in bytes (the full output is in `stdout.log`). */
export const TOOL_OUTPUT_LIMIT = 1024 * 1024;
/** How many bytes of stderr's end go into a failure reason. */
export const STDERR_TAIL = 2000;
/** The file in the stage directory that holds the whole context as JSON (`$ORCHESTRA_CONTEXT_FILE`). */
export const TOOL_CONTEXT_FILE = 'context.json';

async function executeTool(input: HandlerInput, processes: ProcessStarter | undefined): Promise<Outcome> {
  const { node, context, logsRoot, stageDir, workdir, signal } = input;
  const command = node.attributes.tool_command ?? '';
  if (!command.trim()) return { status: 'fail', failureReason: 'No tool_command specified' };
  const contextFile = join(stageDir, TOOL_CONTEXT_FILE);
  await writeFile(contextFile, `${JSON.stringify(context.snapshot(), null, 2)}\n`);
  const result = await runToolProcess({
    command,
    cwd: workdir,
    env: toolEnvironment(context, logsRoot, node.id, contextFile),
    signal,
    stdoutPath: join(stageDir, 'stdout.log'),
    stderrPath: join(stageDir, 'stderr.log'),
    stdoutHeadBytes: TOOL_OUTPUT_LIMIT,
    stderrTailBytes: STDERR_TAIL,
    beforeStart: processes ? (pid) => processes.started(pid, command) : undefined,
    afterExit: processes?.exited ? (pid) => processes.exited?.(pid) : undefined,
  });
  if (result.aborted) throw signal.reason ?? new Error('tool command stopped');
  if (result.code !== 0) {
    const tail = result.stderr.text().trimEnd();
    const how = result.code === null ? `killed by ${result.signal}` : `exit code ${result.code}`;
    return { status: 'fail', failureReason: `tool_command failed (${how})${tail ? `: ${tail}` : ''}`, notes: `Tool failed: ${command}` };
  }
  const { stdout } = result;
  const truncated = stdout.truncated
    ? ` (stdout truncated to ${TOOL_OUTPUT_LIMIT / (1024 * 1024)} MiB in tool.output; full output, ${stdout.total} bytes, in stdout.log)`
    : '';
  return { status: 'success', contextUpdates: { 'tool.output': stdout.text() }, notes: `Tool completed: ${command}${truncated}` };
}

/**
 * Runs `tool_command` with `/bin/sh -c` in the directory orchestra was
 * started from (spec §4.10). Context reaches the command only through
 * `ORCHESTRA_*` environment variables (bounded, see {@link toolEnvironment})
 * and the JSON file `$ORCHESTRA_CONTEXT_FILE` (`<stage>/context.json`).
 * stdout and stderr stream to `stdout.log` and `stderr.log`; the first
 * {@link TOOL_OUTPUT_LIMIT} bytes of stdout become `tool.output`. A non-zero
 * exit is a FAIL with the exit code and the end of stderr. When the node is
 * stopped (timeout, Ctrl-C) the whole process group is killed. The group is
 * recorded in the run's store before the command starts, so a resumed run
 * stops what a killed orchestra left running.
 */
export const toolHandler: Handler = {
  execute: (input) => executeTool(input, input.processes),
};
