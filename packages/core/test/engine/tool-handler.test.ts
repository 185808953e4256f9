import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { SETTLE_AFTER_TIMEOUT_MS } from '../../src/engine/execute-node.js';
import { TOOL_OUTPUT_LIMIT, toolHandler } from '../../src/handlers/tool-handler.js';
import type { HandlerInput } from '../../src/engine/handler.js';
import { CONTEXT_ENV_VALUE_LIMIT } from '../../src/handlers/tool-environment.js';
import { RunContext, runPipeline, type Graph } from '../../src/index.js';
import { contextEnvName, toolEnvironment } from '../../src/handlers.js';
import { parsePipelineSource } from '../../src/loader.js';
import { ManualClock, checkpointAt, dot, newLogsRoot, run, scripted, statusAt, tempDir, useTempDirs, within } from './engine-helpers.js';

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
    expect(result.context['tool.output']).toBe('hello'); // trailing newlines removed, as $(...) does
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

  it('fails without a tool_command (a run refuses such a node before it starts: tool_has_command)', async () => {
    const graph = parsePipelineSource(dot('  t [shape=parallelogram]\n  start -> t -> exit'), 'test.dot').graph as Graph;
    await expect(runPipeline(graph, { logsRoot: join(tempDir(), 'run') })).rejects.toMatchObject({
      code: 'ORCH_VALIDATION',
      diagnostics: [expect.objectContaining({ rule: 'tool_has_command', nodeId: 't' })],
    });
    const outcome = await toolHandler.execute({ node: graph.nodes.get('t'), graph } as HandlerInput);
    expect(outcome).toEqual({ status: 'fail', failureReason: 'No tool_command specified' });
  });

  it('passes context values only through environment variables, never executing them', async () => {
    const dir = tempDir();
    const marker = join(dir, 'pwned');
    const payload = `$(touch ${marker}); \`touch ${marker}\` "quoted" 'single' ; rm -rf nothing & echo $HOME`;
    const { result } = await run(tool('tool_command="printenv ORCHESTRA_CTX_PAYLOAD; echo $ORCHESTRA_CTX_PAYLOAD"'), {
      initialContext: { payload },
    });
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe(`${payload}\n${payload}`);
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
    expect(result.context['tool.output']).toBe(`feature/x\n${logsRoot}\nt\nBuild it`);
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
    // The timeout fires on the injected clock once the command runs. The engine's wait for a
    // stopped handler counts on that clock too and never ends here: the run ends only if the
    // handler stops the command itself.
    const clock = new ManualClock();
    const logsRoot = newLogsRoot();
    const running = run(tool('tool_command="echo $$ > $ORCHESTRA_LOGS_DIR/pid.tmp; mv $ORCHESTRA_LOGS_DIR/pid.tmp $ORCHESTRA_LOGS_DIR/pid; exec sleep 30", timeout="300ms"'), { clock, logsRoot });
    await vi.waitFor(() => expect(existsSync(join(logsRoot, 'pid'))).toBe(true), { timeout: 10_000 });
    expect(clock.pending).toEqual([300]);
    clock.advance(300);
    const { result } = await within(running, 10_000, 'the run whose tool timed out (the command was not killed?)');
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('timed out after 300ms');
    const pid = Number(readFileSync(join(logsRoot, 'pid'), 'utf8').trim());
    expect(pid).toBeGreaterThan(0);
    for (let i = 0; i < 100 && alive(pid); i++) await sleep(20);
    expect(alive(pid)).toBe(false);
  }, 30_000);

  it('is stopped when the run is cancelled, leaving the run resumable', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const { result, logsRoot } = await run(tool('tool_command="sleep 30"'), { signal: controller.signal });
    // Cancelling is not timed on the engine's clock. The command would sleep 30 s: a run that ends
    // well before was stopped; the bound leaves a loaded CI machine plenty of room.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.status).toBe('interrupted');
    expect(result.completedNodes).toEqual(['start']);
    expect(checkpointAt(logsRoot)).toMatchObject({ status: 'interrupted', next_node: 't' });
  }, 40_000); // room for the time bound above to fail with its message rather than as a timeout

  it('writes binary output to stdout.log byte for byte', async () => {
    const { result, logsRoot } = await run(tool(`tool_command="head -c 100000 /dev/urandom; printf '\\\\377\\\\376\\\\0end'"`));
    expect(result.status).toBe('success');
    const log = readFileSync(join(logsRoot, 't', 'stdout.log'));
    expect(log.length).toBe(100006);
    expect([...log.subarray(-6)]).toEqual([0xff, 0xfe, 0, 0x65, 0x6e, 0x64]);
  });

  it('keeps at most TOOL_OUTPUT_LIMIT bytes in tool.output, all of it in stdout.log, and says so', async () => {
    const { result, logsRoot } = await run(tool('tool_command="yes é | head -c 5242880"'));
    expect(result.status).toBe('success');
    expect(readFileSync(join(logsRoot, 't', 'stdout.log')).length).toBe(5 * 1024 * 1024);
    const output = String(result.context['tool.output']);
    // 'é\n' is 3 bytes: the limit falls just after the first byte of an 'é', which is dropped,
    // and then the trailing newline is removed.
    expect(Buffer.byteLength(output)).toBe(TOOL_OUTPUT_LIMIT - 2);
    expect(output).toBe('é\n'.repeat((TOOL_OUTPUT_LIMIT - 1) / 3).slice(0, -1));
    expect(String(statusAt(logsRoot, 't').notes)).toContain('stdout truncated to 1 MiB in tool.output; full output, 5242880 bytes, in stdout.log');
  });

  it('keeps the end of a long stderr in the failure reason', async () => {
    const { result } = await run(tool(`tool_command="head -c 1000000 /dev/zero | tr '\\\\0' x >&2; echo the real cause >&2; exit 1"`));
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/xxx\s*the real cause$/);
    expect(result.failureReason?.length).toBeLessThan(2200);
  });

  it('completes when the shell exits, not when a background job closes the pipes', async () => {
    const started = performance.now();
    const { result, logsRoot } = await run(tool('tool_command="sleep 30 & echo $! > $ORCHESTRA_LOGS_DIR/bg; echo started"'));
    const elapsed = performance.now() - started;
    process.kill(Number(readFileSync(join(logsRoot, 'bg'), 'utf8')), 'SIGKILL');
    // No engine clock is involved. The background job holds the pipes for 30 s: a run that ends
    // well before did not wait for it; the bound leaves a loaded CI machine plenty of room.
    expect(elapsed).toBeLessThan(15_000);
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe('started');
  }, 40_000); // room for the time bound above to fail with its message rather than as a timeout

  it('stops waiting on a timeout although a process that left the group holds the pipes', async () => {
    // The engine gives up on a stopped handler after SETTLE_AFTER_TIMEOUT_MS on its clock; this
    // clock never gets there, so the run ends only if the tool handler stops waiting by itself.
    const clock = new ManualClock();
    const logsRoot = newLogsRoot();
    const command = `setsid sh -c 'echo $$ > $ORCHESTRA_LOGS_DIR/escaped.tmp; mv $ORCHESTRA_LOGS_DIR/escaped.tmp $ORCHESTRA_LOGS_DIR/escaped; exec sleep 30' & exec sleep 10`;
    const running = run(tool(`tool_command="${command}", timeout="300ms"`), { clock, logsRoot });
    await vi.waitFor(() => expect(existsSync(join(logsRoot, 'escaped'))).toBe(true), { timeout: 10_000 });
    clock.advance(300);
    const outcome = await within(running, 10_000, 'the run whose tool timed out (the handler waited for the escaped process?)').catch((error: unknown) => error);
    const escaped = Number(readFileSync(join(logsRoot, 'escaped'), 'utf8'));
    if (escaped > 0) process.kill(escaped, 'SIGKILL');
    if (outcome instanceof Error) throw outcome;
    const { result } = outcome as Awaited<typeof running>;
    expect(clock.pending).toEqual([SETTLE_AFTER_TIMEOUT_MS]); // the engine's own wait for the handler never ran out
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('timed out after 300ms');
  }, 30_000);

  it('bounds context values in the environment, so a large tool.output does not break later tools', async () => {
    const source = dot(
      [
        `  big [shape=parallelogram, tool_command="head -c 204800 /dev/zero | tr '\\\\0' x"]`,
        `  t [shape=parallelogram, tool_command="printf %s \\"$ORCHESTRA_CTX_TOOL_OUTPUT\\" | wc -c; cat \\"$ORCHESTRA_CONTEXT_FILE\\" > $ORCHESTRA_LOGS_DIR/seen.json"]`,
        '  start -> big -> t -> exit',
      ].join('\n'),
    );
    const { result, logsRoot } = await run(source);
    expect(result.status).toBe('success');
    expect(String(result.context['tool.output']).trim()).toBe(String(CONTEXT_ENV_VALUE_LIMIT));
    const seen = JSON.parse(readFileSync(join(logsRoot, 'seen.json'), 'utf8')) as Record<string, unknown>;
    expect(seen['tool.output']).toBe('x'.repeat(204800));
    expect(existsSync(join(logsRoot, 't', 'context.json'))).toBe(true);
  });

  it('starts the command when a context key is too long for a variable name, noting the key left out in status.json', async () => {
    const long = 'k'.repeat(150_000);
    const { result, logsRoot } = await run(tool('tool_command="printenv ORCHESTRA_CTX_SHORT"'), { initialContext: { [long]: 'v', short: 'kept' } });
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe('kept');
    expect(statusAt(logsRoot, 't').notes).toBe(
      `Tool completed: printenv ORCHESTRA_CTX_SHORT (context not passed as ORCHESTRA_CTX_ variables, only in the context file: 1 key with a name over 32 KiB (${'k'.repeat(40)}...))`,
    );
    expect(Object.keys(JSON.parse(readFileSync(join(logsRoot, 't', 'context.json'), 'utf8')) as object)).toContain(long);
  });

  it('passes a value with a NUL byte without it', async () => {
    const { result } = await run(tool('tool_command="printenv ORCHESTRA_CTX_S"'), { initialContext: { s: 'before\u0000after' } });
    expect(result.status).toBe('success');
    expect(result.context['tool.output']).toBe('beforeafter');
  });
});
