import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { contextEnvName, RunContext, toolEnvironment } from '../../src/index.js';
import { checkpointAt, dot, run, scripted, statusAt, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** start -> t -> exit with `t` a tool node (shape=parallelogram). */
function tool(attrs: string, before = ''): string {
  return dot(`${before}  t [shape=parallelogram, ${attrs}]\n  start -> ${before ? 'a -> ' : ''}t -> exit`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('tool handler (spec §4.10)', () => {
  it('puts stdout into tool.output and writes stdout.log and stderr.log', async () => {
    const { result, logsRoot } = await run(tool('tool_command="echo hello; echo warn >&2"'));
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe('hello\n');
    expect(readFileSync(join(logsRoot, 't', 'stdout.log'), 'utf8')).toBe('hello\n');
    expect(readFileSync(join(logsRoot, 't', 'stderr.log'), 'utf8')).toBe('warn\n');
    expect(statusAt(logsRoot, 't')).toMatchObject({ outcome: 'success', notes: 'Tool completed: echo hello; echo warn >&2' });
  });

  it('fails on a non-zero exit with the exit code and the end of stderr', async () => {
    const { result, logsRoot } = await run(tool('tool_command="echo partial; echo something broke >&2; exit 3"'));
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('exit code 3');
    expect(result.failureReason).toContain('something broke');
    expect(result.failureReason).toMatch(/^t failed: /);
    const status = statusAt(logsRoot, 't');
    expect(status.outcome).toBe('fail');
    expect(String(status.failure_reason)).toContain('exit code 3');
    expect(readFileSync(join(logsRoot, 't', 'stdout.log'), 'utf8')).toBe('partial\n');
  });

  it('fails without a tool_command', async () => {
    const { result, logsRoot } = await run(dot('  t [shape=parallelogram]\n  start -> t -> exit'));
    expect(result.status).toBe('fail');
    expect(statusAt(logsRoot, 't')).toMatchObject({ outcome: 'fail', failure_reason: 'No tool_command specified' });
  });

  it('passes context values only through environment variables, never executing them', async () => {
    const dir = tempDir();
    const marker = join(dir, 'pwned');
    const payload = `$(touch ${marker}); \`touch ${marker}\` "quoted" 'single' ; rm -rf nothing & echo $HOME`;
    const { result } = await run(tool('tool_command="printenv ORCHESTRA_CTX_PAYLOAD; echo $ORCHESTRA_CTX_PAYLOAD"'), {
      initialContext: { payload },
    });
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe(`${payload}\n${payload}\n`);
    expect(existsSync(marker)).toBe(false);
  });

  it('names context variables ORCHESTRA_CTX_<KEY> and JSON-encodes non-string values', async () => {
    expect(contextEnvName('graph.goal')).toBe('ORCHESTRA_CTX_GRAPH_GOAL');
    expect(contextEnvName('my-key.sub_1')).toBe('ORCHESTRA_CTX_MY_KEY_SUB_1');
    const env = toolEnvironment(new RunContext({ n: 3, obj: { a: [1, 'x'] }, flag: false, s: 'plain' }), '/logs', 'node1');
    expect(env).toMatchObject({
      ORCHESTRA_LOGS_DIR: '/logs',
      ORCHESTRA_NODE_ID: 'node1',
      ORCHESTRA_CTX_N: '3',
      ORCHESTRA_CTX_OBJ: '{"a":[1,"x"]}',
      ORCHESTRA_CTX_FLAG: 'false',
      ORCHESTRA_CTX_S: 'plain',
    });
    expect(env.PATH).toBe(process.env.PATH);
  });

  it('sees values written by earlier nodes, the run directory and its own node id', async () => {
    const s = scripted({ a: { status: 'success', contextUpdates: { 'work.branch': 'feature/x' } } });
    const source = tool('tool_command="printenv ORCHESTRA_CTX_WORK_BRANCH ORCHESTRA_LOGS_DIR ORCHESTRA_NODE_ID ORCHESTRA_CTX_GRAPH_GOAL"', '  a [type="s"]\n');
    const { result, logsRoot } = await run(source.replace('digraph P {', 'digraph P {\n  graph [goal="Build it"]'), { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe(`feature/x\n${logsRoot}\nt\nBuild it\n`);
  });

  it('runs in the workdir', async () => {
    const workdir = tempDir();
    const { result } = await run(tool('tool_command="pwd; echo made > made.txt"'), { workdir });
    expect(result.status).toBe('success');
    expect(realpathSync(String(result.context['tool.output']).trim())).toBe(realpathSync(workdir));
    expect(readFileSync(join(workdir, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('fails (does not throw) when the workdir does not exist', async () => {
    const { result } = await run(tool('tool_command="true"'), { workdir: join(tempDir(), 'missing') });
    expect(result.status).toBe('fail');
    expect(checkpointAt(result.logsRoot).status).toBe('failed');
  });

  it('kills the command when the node times out', async () => {
    const started = performance.now();
    const { result, logsRoot } = await run(tool('tool_command="echo $$ > $ORCHESTRA_LOGS_DIR/pid; exec sleep 5", timeout="300ms"'));
    expect(performance.now() - started).toBeLessThan(2500);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('timed out after 300ms');
    const pid = Number(readFileSync(join(logsRoot, 'pid'), 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 100 && alive(pid); i++) await sleep(20);
    expect(alive(pid)).toBe(false);
  });

  it('is stopped when the run is cancelled, leaving the run resumable', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const { result, logsRoot } = await run(tool('tool_command="sleep 5"'), { signal: controller.signal });
    expect(performance.now() - started).toBeLessThan(2500);
    expect(result.status).toBe('interrupted');
    expect(result.completedNodes).toEqual(['start']);
    expect(checkpointAt(logsRoot)).toMatchObject({ status: 'interrupted', next_node: 't' });
  });
});
