import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Handler } from '../engine/handler.js';
import { trackProcessGroup } from './process-groups.js';
import { toolEnvironment } from './tool-environment.js';

/** Most stdout kept for `tool.output` (the full text is in `stdout.log`). */
export const TOOL_OUTPUT_LIMIT = 1024 * 1024;
/** How much of stderr's end goes into a failure reason. */
export const STDERR_TAIL = 2000;
/** Grace between SIGTERM and SIGKILL when a command is stopped. */
export const KILL_GRACE_MS = 2000;


interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  aborted: boolean;
}

function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const untrack = child.pid === undefined ? () => {} : trackProcessGroup(child.pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    const killGroup = (sig: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, sig);
      } catch {
        // already gone
      }
    };
    const onAbort = () => {
      aborted = true;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      untrack();
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('close', (code, sig) => {
      untrack();
      signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (aborted) killGroup('SIGKILL'); // anything the shell left behind
      resolve({ code, signal: sig, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), aborted });
    });
  });
}

/**
 * Runs `tool_command` with `/bin/sh -c` in the directory orchestra was
 * started from (spec §4.10). Context reaches the command only through
 * `ORCHESTRA_*` environment variables. stdout becomes `tool.output`; a
 * non-zero exit is a FAIL with the exit code and the end of stderr. When the
 * node is stopped (timeout, Ctrl-C) the whole process group is killed.
 */
export const toolHandler: Handler = {
  async execute({ node, context, logsRoot, stageDir, workdir, signal }) {
    const command = node.attributes.tool_command ?? '';
    if (!command.trim()) return { status: 'fail', failureReason: 'No tool_command specified' };
    const result = await runCommand(command, workdir, toolEnvironment(context, logsRoot, node.id), signal);
    await Promise.all([writeFile(join(stageDir, 'stdout.log'), result.stdout), writeFile(join(stageDir, 'stderr.log'), result.stderr)]);
    if (result.aborted) throw signal.reason ?? new Error('tool command stopped');
    if (result.code !== 0) {
      const tail = result.stderr.trimEnd().slice(-STDERR_TAIL);
      const how = result.code === null ? `killed by ${result.signal}` : `exit code ${result.code}`;
      return { status: 'fail', failureReason: `tool_command failed (${how})${tail ? `: ${tail}` : ''}`, notes: `Tool failed: ${command}` };
    }
    const output = result.stdout.length > TOOL_OUTPUT_LIMIT ? result.stdout.slice(0, TOOL_OUTPUT_LIMIT) : result.stdout;
    return { status: 'success', contextUpdates: { 'tool.output': output }, notes: `Tool completed: ${command}` };
  },
};
