import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Graph, GraphNode } from '@orchestra/core';
import { afterEach, describe, expect, it } from 'vitest';
import { TOOL_HOOKS_FILE, ToolHookLog, createToolHookGuard, hooksFor, runToolHook, type ToolHookRun } from '../../src/tools/index.js';
import { read, removeTempDirs, tempDir } from './helpers.js';

afterEach(removeTempDirs);

function node(attributes: Record<string, string> = {}): GraphNode {
  return { id: 'implement', attributes, origins: {}, subgraphClasses: [] };
}
function graph(attributes: Record<string, string> = {}): Graph {
  return { name: 'g', attributes, origins: {}, nodes: new Map(), edges: [] };
}

function hook(cwd: string, command: string, extra: Partial<ToolHookRun> = {}): Promise<Awaited<ReturnType<typeof runToolHook>>> {
  return runToolHook({ command, phase: 'pre', tool: 'read_file', callId: 'call_1', nodeId: 'implement', args: { path: 'src/a.ts' }, cwd, ...extra });
}

describe('hooksFor', () => {
  it("takes the node's hooks over the graph's; an empty node value turns a hook off", () => {
    const g = graph({ 'tool_hooks.pre': 'graph-pre', 'tool_hooks.post': 'graph-post' });
    expect(hooksFor(node(), g)).toEqual({ pre: 'graph-pre', post: 'graph-post' });
    expect(hooksFor(node({ 'tool_hooks.pre': 'node-pre' }), g)).toEqual({ pre: 'node-pre', post: 'graph-post' });
    expect(hooksFor(node({ 'tool_hooks.post': '' }), g)).toEqual({ pre: 'graph-pre' });
    expect(hooksFor(node({ 'tool_hooks.post': 'node-post' }), graph())).toEqual({ post: 'node-post' });
    expect(hooksFor(node(), graph())).toEqual({});
  });
});

describe('runToolHook', () => {
  it('exit 0 is ok; a non-zero exit is not, with the exit code and output', async () => {
    const dir = tempDir();
    expect(await hook(dir, 'exit 0')).toEqual({ ok: true, exitCode: 0, output: '', timedOut: false });
    expect(await hook(dir, 'echo "path not allowed"; echo "see policy" >&2; exit 3')).toEqual({
      ok: false,
      exitCode: 3,
      output: 'path not allowed\nsee policy',
      timedOut: false,
    });
  });

  it('gives the tool data through environment variables and stdin JSON only', async () => {
    const dir = tempDir();
    const pre = await hook(dir, 'env | grep ^ORCHESTRA_ | sort > pre-env.txt; cat > pre-stdin.json', { env: { PATH: process.env.PATH, ORCHESTRA_TOOL_STATUS: 'stale' } });
    expect(pre.ok).toBe(true);
    expect(read(join(dir, 'pre-env.txt'))).toBe(
      ['ORCHESTRA_HOOK_PHASE=pre', 'ORCHESTRA_NODE_ID=implement', 'ORCHESTRA_TOOL_CALL_ID=call_1', 'ORCHESTRA_TOOL_NAME=read_file', ''].join('\n'),
    );
    expect(JSON.parse(read(join(dir, 'pre-stdin.json')))).toEqual({ phase: 'pre', tool: 'read_file', call_id: 'call_1', node: 'implement', arguments: { path: 'src/a.ts' } });

    await hook(dir, 'env | grep ^ORCHESTRA_TOOL_STATUS > post-env.txt; cat > post-stdin.json', { phase: 'post', result: 'file text', status: 'error' });
    expect(read(join(dir, 'post-env.txt'))).toBe('ORCHESTRA_TOOL_STATUS=error\n');
    expect(JSON.parse(read(join(dir, 'post-stdin.json')))).toMatchObject({ phase: 'post', result: 'file text', status: 'error' });
  });

  it('never splices data into the command: data-looking text is left alone, hostile data stays data', async () => {
    const dir = tempDir();
    const command = `printf '%s' '{tool} {call_id} \${tool} $ORCHESTRA_TOOL_NAME' > literal.txt; printf '%s' "$ORCHESTRA_TOOL_NAME" > name.txt`;
    const result = await hook(dir, command, { tool: '$(touch pwned1)`touch pwned2`', args: { path: "'; touch pwned3; '" } });
    expect(result.ok).toBe(true);
    expect(read(join(dir, 'literal.txt'))).toBe('{tool} {call_id} ${tool} $ORCHESTRA_TOOL_NAME');
    expect(read(join(dir, 'name.txt'))).toBe('$(touch pwned1)`touch pwned2`');
    expect(readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([]);
  });

  it('stops a hook at its timeout and reports it as not ok', async () => {
    const dir = tempDir();
    const started = Date.now();
    const result = await hook(dir, 'echo before; sleep 30', { timeoutMs: 200 });
    expect(result).toEqual({ ok: false, exitCode: null, output: 'before', timedOut: true });
    // Far below the 30 s the sleep would take.
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('reports a hook that cannot start as not ok, and throws when aborted', async () => {
    const missing = join(tempDir(), 'missing');
    const result = await hook(missing, 'exit 0');
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/working directory .* does not exist/);
    const controller = new AbortController();
    controller.abort(new Error('stage stopped'));
    await expect(hook(tempDir(), 'exit 0', { signal: controller.signal })).rejects.toThrow('stage stopped');
  });
});

describe('the stage log and the guard', () => {
  it('ToolHookLog appends one JSON line per hook run', () => {
    const dir = tempDir();
    const log = new ToolHookLog(dir);
    log.record({ phase: 'pre', tool: 'read_file', callId: 'c1', result: { ok: false, exitCode: 2, output: 'no', timedOut: false } });
    log.record({ phase: 'post', tool: 'read_file', callId: 'c1', result: { ok: true, exitCode: 0, output: '', timedOut: false } });
    const lines = read(join(dir, TOOL_HOOKS_FILE)).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ phase: 'pre', tool: 'read_file', call_id: 'c1', exit_code: 2, ok: false, output: 'no' });
    expect(typeof lines[0]?.at).toBe('string');
    expect(lines[1]).toMatchObject({ phase: 'post', exit_code: 0, ok: true });
  });

  it('the guard skips a call when the pre-hook says no, runs the post-hook, and logs both', async () => {
    const dir = tempDir();
    const signal = new AbortController().signal;
    const guard = createToolHookGuard({
      hooks: { pre: 'test "$ORCHESTRA_TOOL_NAME" != write_file || { echo "writes are off"; exit 1; }', post: 'cat > "post-$ORCHESTRA_TOOL_CALL_ID.json"' },
      nodeId: 'implement',
      cwd: dir,
      stageDir: dir,
    });
    expect(await guard.before({ id: 'c1', name: 'write_file', args: { path: 'x' } }, signal)).toEqual({ proceed: false, reason: 'tool_hooks.pre exited with code 1: writes are off' });
    expect(await guard.before({ id: 'c2', name: 'read_file', args: { path: 'x' } }, signal)).toEqual({ proceed: true });
    await guard.after({ id: 'c2', name: 'read_file', args: { path: 'x' } }, 'contents', 'ok', signal);
    expect(JSON.parse(read(join(dir, 'post-c2.json')))).toMatchObject({ phase: 'post', result: 'contents', status: 'ok' });
    const lines = read(join(dir, TOOL_HOOKS_FILE)).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => [l.phase, l.call_id, l.ok])).toEqual([
      ['pre', 'c1', false],
      ['pre', 'c2', true],
      ['post', 'c2', true],
    ]);
    expect(existsSync(join(dir, 'post-c1.json'))).toBe(false);
  });
});
