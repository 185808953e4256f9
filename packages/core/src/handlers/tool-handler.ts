import { join } from 'node:path';
import type { Handler, HandlerInput } from '../engine/handler.js';
import { STATUS_FILE, type Outcome } from '../engine/outcome.js';
import { buildToolEnvironment, describeContextEnvLosses } from './tool-environment.js';
import { runToolProcess, type ProcessStarter } from './tool-process.js';
import { readStatusFile, toolOutcomeFromStatusFile, toolOutputText } from './tool-status.js';

export { KILL_GRACE_MS } from './tool-process.js';

/** Most stdout kept for `tool.output`, in bytes (the full output is in `stdout.log`). */
export const TOOL_OUTPUT_LIMIT = 1024 * 1024;
/** How many bytes of stderr's end go into a failure reason. */
export const STDERR_TAIL = 2000;
/** The file in the stage directory that holds the whole context as JSON (`$ORCHESTRA_CONTEXT_FILE`). */
export const TOOL_CONTEXT_FILE = 'context.json';

async function executeTool(input: HandlerInput, processes: ProcessStarter | undefined): Promise<Outcome> {
  const { node, context, logsRoot, stage, stageDir, workdir, signal } = input;
  const command = node.attributes.tool_command ?? '';
  if (!command.trim()) return { status: 'fail', failureReason: 'No tool_command specified' };
  // The command may report through <stage>/status.json: nothing there may predate it.
  await stage.remove(STATUS_FILE);
  // The command reads these by path: the stage's directory holds its files (a store without directories makes one).
  const contextFile = join(stageDir, TOOL_CONTEXT_FILE);
  await stage.write(TOOL_CONTEXT_FILE, `${JSON.stringify(context.snapshot(), null, 2)}\n`);
  const { env, losses } = buildToolEnvironment(context, logsRoot, node.id, contextFile, stageDir);
  // What of the context the command did not get as variables goes into the stage's notes.
  const envNote = describeContextEnvLosses(losses);
  const result = await runToolProcess({
    command,
    cwd: workdir,
    env,
    signal,
    stdout: { open: () => stage.openStream('stdout.log'), name: join(stageDir, 'stdout.log') },
    stderr: { open: () => stage.openStream('stderr.log'), name: join(stageDir, 'stderr.log') },
    stdoutHeadBytes: TOOL_OUTPUT_LIMIT,
    stderrTailBytes: STDERR_TAIL,
    beforeStart: processes ? (pid) => processes.started(pid, command) : undefined,
    afterExit: processes?.exited ? (pid) => processes.exited?.(pid) : undefined,
  });
  if (result.aborted) throw signal.reason ?? new Error('tool command stopped');
  const tail = result.stderr.text().trimEnd();
  const because = tail ? `: ${tail}` : '';
  // Killed by a signal: the command did not finish, so a status.json it left cannot vouch for it.
  if (result.code === null) return { status: 'fail', failureReason: `tool_command failed (killed by ${result.signal})${because}`, notes: `Tool failed: ${command}${envNote}` };
  const exitFailure = result.code !== 0 ? `tool_command failed (exit code ${result.code})${because}` : undefined;
  const { stdout } = result;
  const output = toolOutputText(stdout.text());
  const truncated = stdout.truncated
    ? ` (stdout truncated to ${TOOL_OUTPUT_LIMIT / (1024 * 1024)} MiB in tool.output; full output, ${stdout.total} bytes, in stdout.log)`
    : '';
  const file = await readStatusFile(stage);
  if (file) return toolOutcomeFromStatusFile(file, { command, code: result.code, output, noteSuffix: `${truncated}${envNote}`, ...(exitFailure ? { exitFailure } : {}) });
  if (exitFailure) return { status: 'fail', failureReason: exitFailure, notes: `Tool failed: ${command}${envNote}` };
  return { status: 'success', contextUpdates: { 'tool.output': output }, notes: `Tool completed: ${command}${truncated}${envNote}` };
}

/**
 * Runs `tool_command` with `/bin/sh -c` in the directory orchestra was
 * started from (spec §4.10). Context reaches the command only through
 * `ORCHESTRA_*` environment variables (bounded, see {@link toolEnvironment})
 * and the JSON file `$ORCHESTRA_CONTEXT_FILE` (`<stage>/context.json`);
 * `$ORCHESTRA_STAGE_DIR` names the stage directory.
 * stdout and stderr stream to `stdout.log` and `stderr.log`; the first
 * {@link TOOL_OUTPUT_LIMIT} bytes of stdout, less trailing newlines (as `$(...)`
 * removes them), become `tool.output`. A non-zero exit is a FAIL with the exit
 * code and the end of stderr.
 *
 * The status-file contract (spec Appendix C): a `status.json` the command
 * wrote in the stage directory (any earlier one is removed before it starts)
 * gives the outcome, whatever the exit code — see
 * {@link toolOutcomeFromStatusFile}; an invalid one fails the node. Not when
 * the command was killed by a signal. `auto_status` changes nothing here: the
 * exit code always gives an outcome.
 *
 * When the node is stopped (timeout, Ctrl-C) the whole process group is
 * killed. The group is recorded in the run's store before the command
 * starts, so a resumed run stops what a killed orchestra left running.
 */
export const toolHandler: Handler = {
  execute: (input) => executeTool(input, input.processes),
};
