import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resumePipeline, type CodergenBackend, type CodergenRequest, type RunEvent, type TokenUsage } from '../../src/index.js';
import { createCodergenHandler, resolveFidelity, retryAfterOf } from '../../src/handlers.js';
import { checkpointAt, dot, eventsOf, graphFrom, journalAt, readJson, registryWith, run, scripted, statusAt, untilAborted, useTempDirs } from './engine-helpers.js';

useTempDirs();

const tokens = (input: number, output: number): TokenUsage => ({ inputTokens: input, outputTokens: output, totalTokens: input + output });

/** A backend that reports one streamed call per stage, with fixed usage, and records its requests. */
function reportingBackend(usage: TokenUsage, pieces = ['Hel', 'lo']): CodergenBackend & { requests: CodergenRequest[]; completedAtCall: string[][] } {
  const requests: CodergenRequest[] = [];
  const completedAtCall: string[][] = [];
  return {
    requests,
    completedAtCall,
    async run(request) {
      requests.push(request);
      completedAtCall.push([...request.run.completedNodes]); // a live view: copy it now
      for (const piece of pieces) request.report.delta(piece);
      request.report.response({ model: 'm-1', durationMs: 5, usage });
      return pieces.join('');
    },
  };
}

describe('token usage (issue 9 item 6)', () => {
  const pipeline = dot('  a [prompt="one"]\n  b [prompt="two"]\n  start -> a -> b -> exit');

  it('puts each node\'s usage in status.json, the journal, stage events, the checkpoint total and the run result', async () => {
    const backend = reportingBackend(tokens(10, 5));
    const { result, events, logsRoot } = await run(pipeline, { handlers: { codergen: createCodergenHandler(backend) } });
    expect(result.status).toBe('success');
    expect(statusAt(logsRoot, 'a').usage).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    expect(journalAt(logsRoot).filter((e) => e.usage).map((e) => [e.node, e.usage?.total_tokens])).toEqual([['a', 15], ['b', 15]]);
    expect(eventsOf(events, 'stage.completed').filter((e) => e.usage).map((e) => e.nodeId)).toEqual(['a', 'b']);
    expect(result.usage).toEqual(tokens(20, 10));
    expect(checkpointAt(logsRoot).token_usage).toEqual({ input_tokens: 20, output_tokens: 10, total_tokens: 30 });
    expect(eventsOf(events, 'pipeline.completed')[0]?.usage).toEqual(tokens(20, 10));
    expect(eventsOf(events, 'llm.response').map((e) => [e.nodeId, e.model, e.usage?.totalTokens])).toEqual([['a', 'm-1', 15], ['b', 'm-1', 15]]);
  });

  it('delivers llm.delta to listeners but never writes it to events.jsonl', async () => {
    const { events, logsRoot } = await run(pipeline, { handlers: { codergen: createCodergenHandler(reportingBackend(tokens(1, 1))) } });
    expect(eventsOf(events, 'llm.delta').map((e) => `${e.nodeId}:${e.text}`)).toEqual(['a:Hel', 'a:lo', 'b:Hel', 'b:lo']);
    const logged = readFileSync(join(logsRoot, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as RunEvent).type);
    expect(logged).toContain('llm.response');
    expect(logged).not.toContain('llm.delta');
  });

  it('counts the tokens of every attempt, including one that threw after spending some', async () => {
    let calls = 0;
    const backend: CodergenBackend = {
      async run({ report }) {
        calls += 1;
        report.response({ model: 'm', durationMs: 1, usage: tokens(7, 3) });
        if (calls === 1) throw Object.assign(new Error('HTTP 503 overloaded'), { status: 503 });
        return 'done';
      },
    };
    const { result, logsRoot } = await run(dot('  a [prompt="x", max_retries=1]\n  start -> a -> exit'), { handlers: { codergen: createCodergenHandler(backend) } });
    expect(result.status).toBe('success');
    expect(calls).toBe(2);
    expect(statusAt(logsRoot, 'a').usage).toEqual({ input_tokens: 14, output_tokens: 6, total_tokens: 20 });
  });

  it('keeps the run total across a resume (tokens of the first process plus the second)', async () => {
    const graphSource = dot('  a [prompt="one"]\n  gate [type="s"]\n  b [prompt="two"]\n  start -> a -> gate -> b -> exit');
    const controller = new AbortController();
    // `a` has completed when the gate runs: stop the run there.
    const stopAtGate = scripted({
      gate: ({ signal }) => {
        controller.abort();
        return untilAborted(signal);
      },
    });
    const { result: stopped, logsRoot } = await run(graphSource, {
      handlers: { codergen: createCodergenHandler(reportingBackend(tokens(10, 5))), s: stopAtGate.handler },
      signal: controller.signal,
    });
    expect(stopped.status).toBe('interrupted');
    expect(stopped.usage).toEqual(tokens(10, 5));
    const registry = registryWith({ codergen: createCodergenHandler(reportingBackend(tokens(1, 2))), s: scripted().handler });
    const resumed = await resumePipeline(logsRoot, { registry, graph: graphFrom(graphSource) });
    expect(resumed.status).toBe('success');
    expect(resumed.usage).toEqual(tokens(11, 7));
  });

  it('sums the usage of parallel branches into the parallel node', async () => {
    const source = dot(
      [
        '  fan [shape=component]',
        '  x [prompt="x"]',
        '  y [prompt="y"]',
        '  join [shape=tripleoctagon]',
        '  start -> fan',
        '  fan -> x',
        '  fan -> y',
        '  x -> join',
        '  y -> join',
        '  join -> exit',
      ].join('\n'),
    );
    const { result, logsRoot } = await run(source, { handlers: { codergen: createCodergenHandler(reportingBackend(tokens(4, 1))) } });
    expect(result.status).toBe('success');
    expect(statusAt(logsRoot, 'fan').usage).toEqual({ input_tokens: 8, output_tokens: 2, total_tokens: 10 });
    expect(result.usage).toEqual(tokens(8, 2));
  });
});

describe('Retry-After (issue 9 item 6)', () => {
  it('finds retryAfterMs on an error or its cause', () => {
    expect(retryAfterOf(Object.assign(new Error('x'), { retryAfterMs: 1500 }))).toBe(1500);
    expect(retryAfterOf(new Error('outer', { cause: Object.assign(new Error('inner'), { retryAfterMs: 20 }) }))).toBe(20);
    expect(retryAfterOf(new Error('none'))).toBeUndefined();
    expect(retryAfterOf(Object.assign(new Error('bad'), { retryAfterMs: -1 }))).toBeUndefined();
  });

  it('waits at least what the provider asked for before the next attempt', async () => {
    const node = scripted({
      a: [
        () => {
          throw Object.assign(new Error('HTTP 429 slow down'), { status: 429, retryAfterMs: 250 });
        },
        { status: 'success' },
      ],
    });
    const { result, events } = await run(dot('  a [type="s", max_retries=2]\n  start -> a -> exit'), { handlers: { s: node.handler } });
    expect(result.status).toBe('success');
    // random() = 0 makes the jittered backoff 100 ms: the provider's 250 ms wins.
    expect(eventsOf(events, 'stage.retrying')[0]?.delayMs).toBe(250);
  });

  it('does not retry when the provider asks for a wait longer than ten minutes, and says so', async () => {
    const node = scripted({
      a: () => {
        throw Object.assign(new Error('HTTP 429 daily quota used up'), { status: 429, retryAfterMs: 3_600_000 });
      },
    });
    const { result } = await run(dot('  a [type="s", max_retries=3]\n  start -> a -> exit'), { handlers: { s: node.handler } });
    expect(result.status).toBe('fail');
    expect(node.count('a')).toBe(1);
    expect(result.failureReason).toContain('asks to wait 3600 s');
  });
});

describe('fidelity and arrival (spec §5.4)', () => {
  const source = dot(
    [
      '  a [prompt="a"]',
      '  b [prompt="b", fidelity="summary:low"]',
      '  c [prompt="c", fidelity="full"]',
      '  d [prompt="d", fidelity="full", thread_id="t1"]',
      '  start -> a',
      '  a -> b [fidelity="truncate"]',
      '  b -> c',
      '  c -> d [thread_id="edge-thread"]',
      '  d -> exit',
    ].join('\n'),
    'F',
    'default_fidelity="compact"',
  );

  it('resolves edge > node > graph > compact, and thread keys for full', () => {
    const graph = graphFrom(source);
    const node = (id: string) => graph.nodes.get(id) as NonNullable<ReturnType<typeof graph.nodes.get>>;
    const edge = (from: string, to: string) => graph.edges.find((e) => e.from === from && e.to === to);
    expect(resolveFidelity(graph, node('a'), { from: 'start', edge: edge('start', 'a') })).toEqual({ mode: 'compact' });
    expect(resolveFidelity(graph, node('b'), { from: 'a', edge: edge('a', 'b') })).toEqual({ mode: 'truncate' });
    expect(resolveFidelity(graph, node('b'), { from: 'a' })).toEqual({ mode: 'summary:low' });
    // full: no thread_id anywhere → the previous node's id.
    expect(resolveFidelity(graph, node('c'), { from: 'b', edge: edge('b', 'c') })).toEqual({ mode: 'full', threadKey: 'b' });
    // the node's thread_id beats the edge's.
    expect(resolveFidelity(graph, node('d'), { from: 'c', edge: edge('c', 'd') })).toEqual({ mode: 'full', threadKey: 't1' });
    const withGraphThread = graphFrom(dot('  n [prompt="n", fidelity="full"]\n  start -> n -> exit', 'G', 'thread_id="main"'));
    expect(resolveFidelity(withGraphThread, withGraphThread.nodes.get('n') as never, { from: 'start' })).toEqual({ mode: 'full', threadKey: 'main' });
    const inSubgraph = graphFrom('digraph S {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  subgraph cluster_x { label="Review Loop"; n [prompt="n", fidelity="full"] }\n  start -> n -> exit\n}\n');
    expect(resolveFidelity(inSubgraph, inSubgraph.nodes.get('n') as never, { from: 'start' }).threadKey).toBe('review-loop');
  });

  it('hands every LLM stage its arrival, run view and fidelity', async () => {
    const backend = reportingBackend(tokens(1, 1));
    await run(source, { handlers: { codergen: createCodergenHandler(backend) } });
    const seen = backend.requests.map((r, i) => [r.node.id, r.fidelity.mode, r.fidelity.threadKey ?? '-', backend.completedAtCall[i]?.join('>'), r.run.resumedAfter]);
    expect(seen).toEqual([
      ['a', 'compact', '-', 'start', 0],
      ['b', 'truncate', '-', 'start>a', 0],
      ['c', 'full', 'b', 'start>a>b', 0],
      ['d', 'full', 't1', 'start>a>b>c', 0],
    ]);
    expect(backend.requests[0]?.run.nodeOutcomes).toMatchObject({ start: 'success' });
    expect(readJson(join(backend.requests[0]?.run.logsRoot ?? '', 'manifest.json')).run_id).toBe(backend.requests[0]?.run.id);
  });
});
