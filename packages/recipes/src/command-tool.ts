import { spawn } from 'node:child_process';
import type { JsonValue } from '@orchestra/core';
import type { ProcessLedger } from '@orchestra/core/handlers';
import { killProcessGroup } from '@orchestra/core/handlers';
import { RecipeToolError, type RecipeTool } from './tool-types.js';

/** Most bytes of a command tool's stdout read. */
const MAX_OUTPUT = 8 * 1024 * 1024;

function durationMs(text: string | undefined): number {
  const m = /^(\d+)(ms|s|m)$/.exec(text ?? '');
  if (!m) return 60_000;
  const n = Number(m[1]);
  return m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

/**
 * A tool a recipe declares as a command: started in the workspace without a
 * shell (`argv` as given), its arguments as JSON on stdin, its result as JSON
 * `{ "data": ..., "summary": "..." }` on stdout. A non-zero exit, a timeout
 * or output that is not such JSON fails the step, naming what happened.
 */
export function commandTool(name: string, argv: readonly string[], options: { timeout?: string; processes?: ProcessLedger } = {}): RecipeTool {
  return {
    name,
    description: `command ${argv.join(' ')}`,
    run: (args, context) =>
      new Promise((resolvePromise, reject) => {
        const [program, ...rest] = argv as [string, ...string[]];
        const child = spawn(program, rest, { cwd: context.workspace, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
        const stop = () => {
          if (child.pid !== undefined) void killProcessGroup(child.pid);
        };
        const timer = setTimeout(() => {
          stop();
          reject(new RecipeToolError(`tool ${name} (${argv.join(' ')}) took longer than ${options.timeout ?? '60s'} and was stopped`));
        }, durationMs(options.timeout));
        context.signal.addEventListener('abort', stop, { once: true });
        if (child.pid !== undefined) void options.processes?.started(child.pid, argv.join(' '));
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => {
          if (out.length < MAX_OUTPUT) out += chunk.toString('utf8');
        });
        child.stderr.on('data', (chunk: Buffer) => {
          if (err.length < 4000) err += chunk.toString('utf8');
        });
        child.on('error', (error) => {
          clearTimeout(timer);
          reject(new RecipeToolError(`tool ${name}: ${argv[0]} could not be started (${(error as NodeJS.ErrnoException).code ?? error.message})`));
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          context.signal.removeEventListener('abort', stop);
          if (child.pid !== undefined) void options.processes?.exited(child.pid);
          if (context.signal.aborted) return reject(context.signal.reason);
          if (code !== 0) return reject(new RecipeToolError(`tool ${name} exited with ${code}${err.trim() ? `: ${err.trim().split('\n').slice(-3).join(' / ')}` : ''}`));
          let parsed: unknown;
          try {
            parsed = JSON.parse(out);
          } catch {
            return reject(new RecipeToolError(`tool ${name} wrote no JSON on stdout (it starts ${JSON.stringify(out.slice(0, 60))})`));
          }
          const result = parsed as { data?: JsonValue; summary?: unknown };
          if (typeof parsed !== 'object' || parsed === null || !('data' in result)) return reject(new RecipeToolError(`tool ${name} wrote JSON without "data" (expected { "data": ..., "summary": "..." })`));
          resolvePromise({ data: result.data as JsonValue, summary: typeof result.summary === 'string' ? result.summary : '' });
        });
        child.stdin.on('error', () => {});
        child.stdin.end(JSON.stringify(args));
      }),
  };
}
