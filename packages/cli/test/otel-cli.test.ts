import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startOtlpReceiver, startScriptedOpenAIServer, toolCall, type OtlpReceiver, type ReceivedSpan, type ScriptedOpenAIServer } from '@orchestra/testing';
import { BIN, ROOT, modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/**
 * `orchestra run` and `orchestra resume` with traces on (an OTLP endpoint in
 * the environment, or --otel): the spans reach an OTLP receiver on
 * 127.0.0.1 through the real SDK and exporter, in this process.
 */

let receiver: OtlpReceiver;
beforeEach(async () => {
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
});

/** The environment sending traces to the receiver as OTLP/JSON (unless `extra` says otherwise). */
const tracedEnv = (extra: Record<string, string> = {}) => modelFreeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', ...extra });

const named = (spans: ReceivedSpan[], name: string) => spans.filter((s) => s.name === name);
function one(spans: ReceivedSpan[], name: string): ReceivedSpan {
  const found = named(spans, name);
  expect(found.map((s) => s.name), `one span named ${name}`).toEqual([name]);
  return found[0] as ReceivedSpan;
}
const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) => spans.filter((s) => s.parentSpanId === parent.spanId).map((s) => s.name);
const ERROR = 2;
const CLIENT = 3;

/** A free port nothing listens on (taken, then closed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('traces of orchestra run', () => {
  it('a run span with a span per stage under it, run and node ids on each, one trace, service orchestra', async () => {
    const dir = join(tempDir(), 'run-1');
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', dir], { env: tracedEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const spans = receiver.spans(); // sent before the command returned
    const run = one(spans, 'run Simple');
    expect(run.parentSpanId).toBeUndefined();
    expect(run.serviceName).toBe('orchestra');
    expect(run.attributes).toMatchObject({ 'orchestra.run.id': 'run-1', 'orchestra.run.location': dir, 'orchestra.pipeline': 'Simple', 'orchestra.run.status': 'success', 'orchestra.run.nodes_run': 4, 'orchestra.run.resumed': false });
    expect(childrenOf(spans, run)).toEqual(['stage start', 'stage run_tests', 'stage report', 'stage exit']);
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([run.traceId]));
    for (const stage of spans.filter((s) => s.name.startsWith('stage '))) {
      expect(stage.attributes).toMatchObject({ 'orchestra.run.id': 'run-1', 'orchestra.node.id': stage.name.slice(6), 'orchestra.stage.attempt': 1, 'orchestra.stage.status': 'success' });
      expect(BigInt(stage.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(run.startTimeUnixNano));
      expect(BigInt(stage.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(run.endTimeUnixNano));
    }
  });

  it('a retried stage is two attempt spans, the first an error; a failed stage and the run have the error status', async () => {
    const project = tempDir();
    writeFileSync(
      join(project, 'p.dot'),
      `digraph Flaky {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  flaky [shape=parallelogram, tool_command="test -f seen || { touch seen; exit 1; }", max_retries=1]
  broken [shape=parallelogram, tool_command="exit 3"]
  start -> flaky -> broken -> exit
}
`,
    );
    const r = await cliWith(['run', 'p.dot', '--quiet', '--logs-dir', 'run'], { cwd: project, env: tracedEnv() });
    expect(r.code).toBe(1);
    const spans = receiver.spans();
    const run = one(spans, 'run Flaky');
    const attempts = named(spans, 'stage flaky');
    expect(attempts.map((s) => [s.attributes['orchestra.stage.attempt'], s.status.code, s.attributes['orchestra.stage.will_retry'], s.parentSpanId])).toEqual([
      [1, ERROR, true, run.spanId],
      [2, 0, undefined, run.spanId],
    ]);
    const broken = one(spans, 'stage broken');
    expect(broken.status.code).toBe(ERROR);
    expect(broken.status.message).toMatch(/exit(ed with)? (code )?3/);
    expect(broken.attributes).toMatchObject({ 'orchestra.stage.status': 'fail', 'orchestra.stage.will_retry': false });
    expect(run.status.code).toBe(ERROR);
    expect(run.attributes['orchestra.run.status']).toBe('fail');
  });

  it("a parallel node's branches are spans under its stage, each with its nodes", async () => {
    const r = await cliWith(['run', 'fixtures/parallel.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'par')], { env: tracedEnv() });
    expect(r.code).toBe(0);
    const spans = receiver.spans();
    const run = one(spans, 'run Parallel');
    const fan = one(spans, 'stage fan');
    expect(fan.parentSpanId).toBe(run.spanId);
    expect(childrenOf(spans, fan).sort()).toEqual(['branch perf', 'branch security', 'branch style']);
    for (const branch of ['security', 'perf', 'style']) {
      const span = one(spans, `branch ${branch}`);
      expect(span.attributes).toMatchObject({ 'orchestra.branch.id': branch, 'orchestra.node.id': 'fan', 'orchestra.stage.status': 'success' });
      expect(childrenOf(spans, span)).toEqual([`stage ${branch}`]);
    }
    expect(one(spans, 'stage join').parentSpanId).toBe(run.spanId);
    expect(one(spans, 'stage summarize').parentSpanId).toBe(run.spanId);
  });

  it("a sub-pipeline's child run is a run span under the node that started it, in the same trace", async () => {
    const r = await cliWith(['run', 'fixtures/sub-pipeline.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'parent')], { env: tracedEnv() });
    expect(r.code).toBe(0);
    const spans = receiver.spans();
    const parent = one(spans, 'run Parent');
    const review = one(spans, 'stage review');
    const childRuns = spans.filter((s) => s.name.startsWith('run ') && s !== parent);
    expect(childRuns).toHaveLength(1);
    const child = childRuns[0] as ReceivedSpan;
    expect(child.parentSpanId).toBe(review.spanId);
    expect(child.traceId).toBe(parent.traceId);
    expect(child.attributes).toMatchObject({ 'orchestra.parent.run.id': 'parent', 'orchestra.parent.node.id': 'review', 'orchestra.run.status': 'success' });
    expect(String(child.attributes['orchestra.run.location'])).toContain(join('parent', 'review'));
    const childStages = childrenOf(spans, child);
    expect(childStages.length).toBeGreaterThan(1);
    expect(childStages.every((name) => name.startsWith('stage '))).toBe(true);
    for (const name of childStages) expect(spans.find((s) => s.name === name && s.parentSpanId === child.spanId)?.attributes['orchestra.run.id']).toBe(child.attributes['orchestra.run.id']);
  });

  it("a manager loop's child run is a run span under the manager node", async () => {
    const r = await cliWith(['run', 'fixtures/manager-loop.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'manager')], { env: tracedEnv() });
    expect(r.code).toBe(0);
    const spans = receiver.spans();
    const supervise = one(spans, 'stage supervise');
    const child = spans.find((s) => s.name.startsWith('run ') && s.parentSpanId === supervise.spanId);
    expect(child?.attributes).toMatchObject({ 'orchestra.parent.run.id': 'manager', 'orchestra.parent.node.id': 'supervise', 'orchestra.run.status': 'success' });
    expect(childrenOf(spans, child as ReceivedSpan).length).toBeGreaterThan(1);
  });

  it('a parked run ends its span as parked; its resume is a run span of its own, resumed', async () => {
    const dir = join(tempDir(), 'gate');
    const parked = await cliWith(['run', 'fixtures/human-gate.dot', '--simulate', '--park', '--otel', '--quiet', '--logs-dir', dir], { env: tracedEnv() });
    expect(parked.code).toBe(3);
    // --otel is not recorded with the run: the command printed to go on repeats it.
    expect(parked.stderr).toMatch(/orchestra resume \S+ .*--otel/);
    const first = one(receiver.spans(), 'run Review');
    expect(first.attributes['orchestra.run.status']).toBe('parked');
    const resumed = await cliWith(['resume', dir, '--simulate', '--auto-approve', '--quiet'], { env: tracedEnv() });
    expect(resumed.code).toBe(0);
    const runs = named(receiver.spans(), 'run Review');
    expect(runs).toHaveLength(2);
    expect(runs[1]?.attributes).toMatchObject({ 'orchestra.run.resumed': true, 'orchestra.run.status': 'success', 'orchestra.run.id': 'gate' });
    expect(runs[1]?.traceId).not.toBe(first.traceId);
  });
});

describe('model and tool calls', () => {
  let server: ScriptedOpenAIServer;
  beforeEach(async () => {
    server = await startScriptedOpenAIServer({ apiKey: 'test-key' });
  });
  afterEach(async () => {
    await server.close();
  });

  it('an agent stage: a chat span per model call with the GenAI attributes and tokens, an execute_tool span per tool call', async () => {
    const project = join(tempDir(), 'work');
    mkdirSync(project);
    writeFileSync(join(project, 'notes.txt'), 'the secret word is heron\n');
    writeFileSync(join(project, 'p.dot'), 'digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  read [prompt="What is the secret word in notes.txt?"]\n  start -> read -> exit\n}\n');
    server.enqueue(toolCall('read_file', { path: 'notes.txt' }, { id: 'call-7', usage: { promptTokens: 30, completionTokens: 5 } }), reply('The word is heron.', { usage: { promptTokens: 50, completionTokens: 6 } }));
    const r = await cliWith(['run', 'p.dot', '--model', 'scripted-model', '--backend', 'agent', '--quiet', '--logs-dir', 'run'], {
      cwd: project,
      env: tracedEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key' }),
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const spans = receiver.spans();
    const stage = one(spans, 'stage read');
    const calls = named(spans, 'chat scripted-model');
    expect(calls).toHaveLength(2);
    expect(calls.map((c) => [c.attributes['gen_ai.usage.input_tokens'], c.attributes['gen_ai.usage.output_tokens']])).toEqual([
      [30, 5],
      [50, 6],
    ]);
    for (const call of calls) {
      expect(call.parentSpanId).toBe(stage.spanId);
      expect(call.kind).toBe(CLIENT);
      expect(call.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': 'openai',
        'gen_ai.system': 'openai',
        'gen_ai.request.model': 'scripted-model',
        'gen_ai.response.model': 'scripted-model',
        'orchestra.run.id': 'run',
        'orchestra.node.id': 'read',
      });
      expect(BigInt(call.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(stage.startTimeUnixNano));
      expect(BigInt(call.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(stage.endTimeUnixNano));
    }
    const tool = one(spans, 'execute_tool read_file');
    expect(tool.parentSpanId).toBe(stage.spanId);
    expect(tool.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.id': 'call-7', 'orchestra.tool.status': 'ok', 'orchestra.node.id': 'read' });
    // The tool ran between the two model calls.
    expect(BigInt(tool.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt((calls[0] as ReceivedSpan).endTimeUnixNano));
    expect(BigInt(tool.endTimeUnixNano)).toBeLessThanOrEqual(BigInt((calls[1] as ReceivedSpan).startTimeUnixNano));
    // The provider is in the run's events too.
    const responses = readFileSync(join(project, 'run', 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; provider?: string }).filter((e) => e.type === 'llm.response');
    expect(responses.map((e) => e.provider)).toEqual(['openai', 'openai']);
  });
});

describe('how traces are sent', () => {
  it('http/protobuf by default, with the headers of OTEL_EXPORTER_OTLP_HEADERS and the service name of OTEL_SERVICE_NAME', async () => {
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'pb')], {
      env: modelFreeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Basic cGs6c2s=', OTEL_SERVICE_NAME: 'nightly-notes' }),
    });
    expect(r.code).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const request of receiver.requests) {
      expect(request.contentType).toBe('application/x-protobuf');
      expect(request.headers.authorization).toBe('Basic cGs6c2s=');
    }
    const run = one(receiver.spans(), 'run Simple');
    expect(run.serviceName).toBe('nightly-notes');
    expect(run.attributes).toMatchObject({ 'orchestra.pipeline': 'Simple', 'orchestra.run.nodes_run': 4 });
    expect(childrenOf(receiver.spans(), run)).toEqual(['stage start', 'stage run_tests', 'stage report', 'stage exit']);
  });

  it('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the traces URL itself', async () => {
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'te')], {
      env: modelFreeEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json' }),
    });
    expect(r.code).toBe(0);
    expect(receiver.requests.map((q) => [q.path, q.contentType])).toContainEqual(['/v1/traces', 'application/json']);
    one(receiver.spans(), 'run Simple');
  });

  it('without an endpoint or --otel nothing is sent', async () => {
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'off')], { env: modelFreeEnv() });
    expect(r.code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(receiver.requests).toEqual([]);
  });

  it('a collector that is down: the run succeeds, and one warning line says the traces were not sent', async () => {
    const port = await deadPort();
    const started = performance.now();
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'dead')], { env: modelFreeEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_EXPORTER_OTLP_TIMEOUT: '2000' }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^✔ success: 4 nodes run/);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([expect.stringMatching(new RegExp(`^orchestra: warning: traces could not be sent to http://127\\.0\\.0\\.1:${port}/v1/traces: .+`))]);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    // Refused connections fail at once; at worst the wait is bounded by the timeout.
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('a collector that never answers holds the command no longer than OTEL_EXPORTER_OTLP_TIMEOUT', async () => {
    receiver.respond('hang');
    const started = performance.now();
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'hang')], { env: tracedEnv({ OTEL_EXPORTER_OTLP_TIMEOUT: '300' }) });
    const took = performance.now() - started;
    expect(r.code).toBe(0);
    expect(receiver.requests.length).toBeGreaterThan(0); // it was sent, and never answered
    expect(r.stderr).toMatch(/^orchestra: warning: traces could not be sent to http:\/\/127\.0\.0\.1:\d+\/v1\/traces: .+\n$/);
    expect(took).toBeLessThan(3000);
  });

  it('a collector that refuses them (HTTP 500): the run goes on, one warning line', async () => {
    receiver.respond('error');
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--logs-dir', join(tempDir(), 'refused')], { env: tracedEnv() });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^orchestra: warning: traces could not be sent to .+\n$/);
    expect(receiver.spans()).toEqual([]);
  });

  it('--otel without an endpoint sends to http://localhost:4318 (here nobody listens: a warning names it)', async () => {
    const r = await cliWith(['run', 'fixtures/simple.dot', '--simulate', '--quiet', '--otel', '--logs-dir', join(tempDir(), 'flag')], { env: modelFreeEnv({ OTEL_EXPORTER_OTLP_TIMEOUT: '1000' }) });
    expect(r.code).toBe(0);
    // Unless a collector runs on this machine's port 4318, which a test machine does not have.
    expect(r.stderr).toMatch(/^orchestra: warning: traces could not be sent to http:\/\/localhost:4318\/v1\/traces: .+\n$/);
  });
});



describe('orchestra serve --otel', () => {
  it('traces each run the server drives, and sends the last spans when it stops', { timeout: 30_000 }, async () => {
    // A process of its own: serve runs until a signal.
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--otel', '--runs-dir', join(tempDir(), 'runs')], {
      cwd: ROOT,
      env: modelFreeEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: receiver.tracesUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      for (let i = 0; i < 400 && !/serving (http:\/\/\S+) /.test(stdout); i++) await new Promise((r) => setTimeout(r, 25));
      const url = /serving (http:\/\/\S+) /.exec(stdout)?.[1];
      expect(url, stderr).toBeDefined();
      const source = readFileSync(join(ROOT, 'fixtures', 'simple.dot'), 'utf8');
      const ids: string[] = [];
      for (let n = 0; n < 2; n++) {
        const created = await fetch(`${url}/pipelines`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ source, simulate: true }) });
        expect(created.status, await created.clone().text()).toBe(201);
        ids.push(((await created.json()) as { id: string }).id);
      }
      for (const id of ids) {
        let state = '';
        for (let i = 0; i < 400 && state !== 'completed'; i++) {
          state = ((await (await fetch(`${url}/pipelines/${id}`)).json()) as { state: string }).state;
          if (state !== 'completed') await new Promise((r) => setTimeout(r, 25));
        }
        expect(state).toBe('completed');
      }
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      const runs = named(receiver.spans(), 'run Simple');
      expect(runs.map((s) => s.attributes['orchestra.run.id']).sort()).toEqual([...ids].sort());
      expect(new Set(runs.map((s) => s.traceId)).size).toBe(2);
      for (const run of runs) expect(childrenOf(receiver.spans(), run)).toEqual(['stage start', 'stage run_tests', 'stage report', 'stage exit']);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
