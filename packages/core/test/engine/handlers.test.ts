import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  HandlerRegistry,
  MissingHandlerError,
  ValidationError,
  createDefaultRegistry,
  loadPipeline,
  runPipeline,
  simulationBackend,
  type CodergenBackend,
  type CodergenRequest,
  type Graph,
  type Handler,
  type HandlerInput,
  type Outcome,
} from '../../src/index.js';
import { LAST_RESPONSE_LENGTH, composePrompt } from '../../src/handlers.js';
import { checkpointAt, dot, eventsOf, graphFrom, journalAt, newLogsRoot, run, scripted, statusAt, tempDir, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** A backend that records its requests and answers with `respond`. */
function recordingBackend(respond: (request: CodergenRequest) => string | Outcome | Promise<string | Outcome>): CodergenBackend & { requests: CodergenRequest[] } {
  const requests: CodergenRequest[] = [];
  return {
    requests,
    async run(request) {
      requests.push(request);
      return respond(request);
    },
  };
}

describe('built-in no-op handlers (spec §4.3, §4.4, §4.7)', () => {
  it('start, exit and conditional succeed and write their status files', async () => {
    const source = dot('  check [shape=diamond]\n  start -> check -> exit');
    const { result, logsRoot, events } = await run(source);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'check', 'exit']);
    expect(statusAt(logsRoot, 'start')).toMatchObject({ outcome: 'success' });
    expect(statusAt(logsRoot, 'check')).toMatchObject({ outcome: 'success', notes: 'Conditional node evaluated: check' });
    expect(statusAt(logsRoot, 'exit')).toMatchObject({ outcome: 'success' });
    expect(eventsOf(events, 'stage.started').map((e) => [e.nodeId, e.handlerType])).toEqual([
      ['start', 'start'],
      ['check', 'conditional'],
      ['exit', 'exit'],
    ]);
  });

  it('resolves the start and exit nodes by id when they have no shape', async () => {
    const source = 'digraph P {\n  start\n  a [type="s"]\n  end\n  start -> a -> end\n}\n';
    const { result, events } = await run(source, { handlers: { s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'end']);
    expect(eventsOf(events, 'stage.started').map((e) => e.handlerType)).toEqual(['start', 's', 'exit']);
  });
});

describe('codergen handler (spec §4.5)', () => {
  const goal = 'Ship the widget';

  it('sends the prompt with $goal expanded, writes prompt.md and response.md, and sets last_stage/last_response', async () => {
    const backend = recordingBackend(({ node }) => `answer from ${node.id}`);
    const source = dot('  plan [shape=box, prompt="Plan for: $goal"]\n  start -> plan -> exit', 'P', `goal="${goal}"`);
    const { result, logsRoot } = await run(source, { registry: createDefaultRegistry({ backend }) });
    expect(result.status).toBe('success');
    expect(backend.requests.map((r) => r.prompt)).toEqual([`Plan for: ${goal}`]);
    expect(backend.requests[0]?.node.id).toBe('plan');
    expect(backend.requests[0]?.context.get('graph.goal')).toBe(goal);
    expect(backend.requests[0]?.signal).toBeInstanceOf(AbortSignal);
    expect(readFileSync(join(logsRoot, 'plan', 'prompt.md'), 'utf8')).toBe(`Plan for: ${goal}`);
    expect(readFileSync(join(logsRoot, 'plan', 'response.md'), 'utf8')).toBe('answer from plan');
    expect(result.context.last_stage).toBe('plan');
    expect(result.context.last_response).toBe('answer from plan');
    expect(statusAt(logsRoot, 'plan')).toMatchObject({ outcome: 'success', notes: 'Stage completed: plan', context_updates: { last_stage: 'plan' } });
  });

  it('uses the label when there is no prompt (with $goal expanded), and the node id when there is neither', async () => {
    const backend = recordingBackend(() => 'ok');
    const source = dot('  a [label="Label for $goal"]\n  b [prompt="  ", label="B label"]\n  c\n  start -> a -> b -> c -> exit', 'P', `goal="${goal}"`);
    await run(source, { registry: createDefaultRegistry({ backend }) });
    expect(backend.requests.map((r) => r.prompt)).toEqual([`Label for ${goal}`, 'B label', 'c']);
    const graph: Graph = graphFrom(source);
    expect(composePrompt(graph.nodes.get('a')!, graph)).toBe(`Label for ${goal}`);
  });

  it('keeps the whole response in response.md but only the first 200 characters in last_response', async () => {
    const long = 'x'.repeat(150) + 'y'.repeat(150);
    const { result, logsRoot } = await run(dot('  a [prompt="go"]\n  start -> a -> exit'), { registry: createDefaultRegistry({ backend: recordingBackend(() => long) }) });
    expect(LAST_RESPONSE_LENGTH).toBe(200);
    expect(result.context.last_response).toBe(long.slice(0, 200));
    expect(readFileSync(join(logsRoot, 'a', 'response.md'), 'utf8')).toBe(long);
  });

  it('response.key puts the whole response in the context for later prompts to quote', async () => {
    const long = `${'draft '.repeat(60)}end`;
    const backend = recordingBackend(({ node }) => (node.id === 'a' ? long : 'ok'));
    const source = dot('  a [prompt="draft", response.key="draft"]\n  b [prompt="Critique: {{draft}}"]\n  start -> a -> b -> exit');
    const { result } = await run(source, { registry: createDefaultRegistry({ backend }) });
    expect(result.context.draft).toBe(long);
    expect(backend.requests[1]?.prompt).toBe(`Critique: ${long}`);
  });

  it('uses an Outcome returned by the backend as it is', async () => {
    const backend = recordingBackend(() => ({ status: 'success', preferredLabel: 'Fix', contextUpdates: { verdict: 'needs work' }, notes: 'reviewed' }));
    const source = dot(
      '  review [prompt="review"]\n  fix [type="s"]\n  ship [type="s"]\n  start -> review\n  review -> ship [label="[S] Ship"]\n  review -> fix [label="[F] Fix"]\n  fix -> exit\n  ship -> exit',
    );
    const registry = createDefaultRegistry({ backend }).register('s', scripted().handler);
    const { result, logsRoot } = await run(source, { registry });
    expect(result.completedNodes).toEqual(['start', 'review', 'fix', 'exit']);
    expect(result.context.verdict).toBe('needs work');
    expect(result.context).not.toHaveProperty('last_stage');
    expect(existsSync(join(logsRoot, 'review', 'prompt.md'))).toBe(true);
    expect(existsSync(join(logsRoot, 'review', 'response.md'))).toBe(false);
    expect(statusAt(logsRoot, 'review')).toMatchObject({ outcome: 'success', preferred_label: 'Fix', notes: 'reviewed' });
  });

  it('turns a backend that throws into a FAIL outcome', async () => {
    const backend = recordingBackend(() => {
      throw new Error('model exploded');
    });
    const { result, logsRoot } = await run(dot('  a [prompt="go"]\n  start -> a -> exit'), { registry: createDefaultRegistry({ backend }) });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toBe('a failed: model exploded');
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'model exploded' });
    expect(existsSync(join(logsRoot, 'a', 'prompt.md'))).toBe(true);
  });

  it('adds codergen over the backend to a custom registry that lacks it', async () => {
    const registry = new HandlerRegistry().register('start', scripted().handler).register('exit', scripted().handler);
    const graph = graphFrom(dot('  a [prompt="go"]\n  start -> a -> exit'));
    const result = await runPipeline(graph, { registry, backend: simulationBackend, logsRoot: newLogsRoot() });
    expect(result.status).toBe('success');
    expect(result.context.last_response).toBe('[Simulated] Response for stage: a');
  });
});

describe('custom handlers (spec §4.12)', () => {
  it('runs a registered handler by type with the whole handler input', async () => {
    const inputs: HandlerInput[] = [];
    let currentNode: unknown;
    const custom: Handler = {
      execute(input) {
        inputs.push(input);
        currentNode = input.context.get('current_node');
        return { status: 'success', contextUpdates: { seen: input.node.attributes.custom_attr ?? '' } };
      },
    };
    const workdir = tempDir();
    const source = dot('  my_node [type="my_custom_type", shape=box, custom_attr="value"]\n  start -> my_node -> exit');
    const { result, logsRoot, graph } = await run(source, { handlers: { my_custom_type: custom }, workdir });
    expect(result.status).toBe('success');
    expect(result.context.seen).toBe('value');
    expect(inputs).toHaveLength(1);
    const input = inputs[0]!;
    expect(input.node.id).toBe('my_node');
    expect(input.graph).toBe(graph);
    expect(input.logsRoot).toBe(logsRoot);
    expect(input.stageDir).toBe(join(logsRoot, 'my_node'));
    expect(input.workdir).toBe(workdir);
    expect(input.attempt).toBe(1);
    expect(input.signal.aborted).toBe(false);
    expect(currentNode).toBe('my_node');
  });

  it('lets a registration replace a built-in handler', async () => {
    const registry = createDefaultRegistry().register('conditional', { execute: () => ({ status: 'success', contextUpdates: { mine: true } }) });
    const { result } = await run(dot('  c [shape=diamond]\n  start -> c -> exit'), { registry });
    expect(result.context.mine).toBe(true);
  });

  it('resolves handlers by explicit type, then shape, then the codergen default', () => {
    const registry = createDefaultRegistry({ backend: simulationBackend }).register('s', scripted().handler);
    const graph = graphFrom(dot('  t [shape=parallelogram, tool_command="true"]\n  o [shape=parallelogram, type="s"]\n  d [shape=ellipse, prompt="x"]\n  start -> t -> o -> d -> exit'));
    expect(registry.resolve(graph.nodes.get('t')!)?.type).toBe('tool');
    expect(registry.resolve(graph.nodes.get('o')!)?.type).toBe('s');
    expect(registry.resolve(graph.nodes.get('d')!)?.type).toBe('codergen');
    expect(registry.types()).toEqual(expect.arrayContaining(['start', 'exit', 'conditional', 'tool', 'codergen', 's']));
  });
});

describe('the status-file contract (Appendix C)', () => {
  const source = (attrs = '') =>
    dot(`  a [type="ext"${attrs}]\n  yes [type="s"]\n  no [type="s"]\n  start -> a\n  a -> yes [label="Yes"]\n  a -> no [label="No"]\n  a -> no [condition="outcome=fail"]\n  yes -> exit\n  no -> exit`);
  const writes = (file: unknown): Handler => ({
    execute: ({ stageDir }) => {
      writeFileSync(join(stageDir, 'status.json'), typeof file === 'string' ? file : JSON.stringify(file));
      return undefined;
    },
  });

  it('reads status.json written by a handler that returns nothing', async () => {
    const handler = writes({ outcome: 'success', preferred_label: 'No', context_updates: { 'agent.result': 'done' }, notes: 'external agent' });
    const { result, logsRoot } = await run(source(), { handlers: { ext: handler, s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'no', 'exit']);
    expect(result.context['agent.result']).toBe('done');
    expect(result.context.preferred_label).toBe('No');
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'success', preferred_label: 'No', notes: 'external agent' });
  });

  it('honours a fail outcome from status.json', async () => {
    const { result, logsRoot } = await run(source(), { handlers: { ext: writes({ outcome: 'fail', failure_reason: 'agent gave up' }), s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'a', 'no', 'exit']);
    expect(result.context.outcome).toBe('success');
    expect(statusAt(logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'agent gave up' });
  });

  it('synthesizes success with auto_status=true when nothing was written, and fails without it', async () => {
    const silent: Handler = { execute: () => undefined };
    const auto = await run(source(', auto_status=true'), { handlers: { ext: silent, s: scripted().handler } });
    expect(auto.result.completedNodes).toEqual(['start', 'a', 'no', 'exit']); // success: lexical tiebreak picks "no"
    expect(statusAt(auto.logsRoot, 'a')).toMatchObject({ outcome: 'success', notes: 'auto-status: handler completed without writing status' });

    const strict = await run(source(), { handlers: { ext: silent, s: scripted().handler } });
    expect(statusAt(strict.logsRoot, 'a')).toMatchObject({ outcome: 'fail', failure_reason: 'the handler returned no outcome and wrote no status.json' });
  });

  it('fails the node when status.json is not valid JSON or not a status file', async () => {
    const broken = await run(source(), { handlers: { ext: writes('{"outcome": "succ'), s: scripted().handler } });
    expect(statusAt(broken.logsRoot, 'a')).toMatchObject({ outcome: 'fail' });
    expect(String(statusAt(broken.logsRoot, 'a').failure_reason)).toMatch(/^status\.json is not valid JSON: \S/);
    const foreign = await run(source(), { handlers: { ext: writes({ outcome: 'great' }), s: scripted().handler } });
    expect(statusAt(foreign.logsRoot, 'a')).toMatchObject({ outcome: 'fail' });
    expect(String(statusAt(foreign.logsRoot, 'a').failure_reason)).toContain('status.json is invalid');
  });

  it('does not mistake the status.json of an earlier visit for one the handler wrote now', async () => {
    // Visit 1 returns FAIL (the engine records it in x/status.json); visit 2 returns nothing and
    // writes nothing, so auto_status=true must make it a success. Visit 3+ succeed explicitly, to
    // bound the loop if the stale file is read instead.
    let visits = 0;
    const ext: Handler = {
      execute: () => {
        visits++;
        if (visits === 1) return { status: 'fail', failureReason: 'first try' };
        if (visits === 2) return undefined;
        return { status: 'success' };
      },
    };
    const looped = dot('  x [type="ext", auto_status=true]\n  fixer [type="s"]\n  start -> x\n  x -> fixer [condition="outcome=fail"]\n  fixer -> x\n  x -> exit [condition="outcome=success"]');
    const { result } = await run(looped, { handlers: { ext, s: scripted().handler } });
    expect(result.completedNodes).toEqual(['start', 'x', 'fixer', 'x', 'exit']);
  });
});

describe('SKIPPED outcomes (spec §5.2)', () => {
  it('are not recorded for goal gates and do not overwrite outcome or preferred_label', async () => {
    const s = scripted({
      a: { status: 'partial_success', preferredLabel: 'onward' },
      gate: { status: 'skipped', preferredLabel: 'ignored', notes: 'nothing to do' },
    });
    const source = dot('  a [type="s"]\n  gate [type="s", goal_gate=true]\n  start -> a -> gate -> exit');
    const { result, logsRoot } = await run(source, { handlers: { s: s.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a', 'gate', 'exit']);
    expect(result.context.outcome).toBe('success'); // set by exit, the last node
    const journal = journalAt(logsRoot);
    const gateEntry = journal.find((e) => e.node === 'gate');
    expect(gateEntry?.status).toBe('skipped');
    expect(gateEntry?.context).not.toHaveProperty('outcome');
    expect(gateEntry?.context).not.toHaveProperty('preferred_label');
    expect(journal.find((e) => e.node === 'a')?.context).toMatchObject({ outcome: 'partial_success', preferred_label: 'onward' });
    expect(checkpointAt(logsRoot).node_outcomes).not.toHaveProperty('gate');
    expect(statusAt(logsRoot, 'gate')).toMatchObject({ outcome: 'skipped', notes: 'nothing to do' });
  });

  it('leave an earlier failure of a goal gate in force', async () => {
    // gate fails, recovers via a fail edge, is visited again and skipped: its FAIL still blocks exit.
    const s = scripted({ gate: [{ status: 'fail' }, { status: 'skipped' }] });
    const source = dot('  gate [type="s", goal_gate=true]\n  fix [type="s"]\n  start -> gate\n  gate -> fix [condition="outcome=fail"]\n  fix -> gate\n  gate -> exit [condition="outcome=skipped"]');
    const { result } = await run(source, { handlers: { s: s.handler } });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('goal gate gate');
  });
});

describe('handler errors never escape the run (spec §4.12)', () => {
  const source = dot('  a [type="s"]\n  start -> a -> exit');
  const cases: [string, Handler['execute']][] = [
    [
      'a synchronous throw',
      () => {
        throw new Error('sync boom');
      },
    ],
    ['a rejected promise', async () => Promise.reject(new Error('async boom'))],
    [
      'a thrown non-Error',
      () => {
        throw 'a plain string';
      },
    ],
    ['an invalid status', () => ({ status: 'great' }) as unknown as Outcome],
    ['a non-JSON context update', () => ({ status: 'success', contextUpdates: { when: new Date() } }) as unknown as Outcome],
    [
      'a bad direct context write',
      ({ context }) => {
        context.set('fn', () => 1);
        return { status: 'success' };
      },
    ],
  ];
  for (const [name, execute] of cases) {
    it(`turns ${name} into a FAIL outcome`, async () => {
      const { result, logsRoot } = await run(source, { handlers: { s: { execute } } });
      expect(result.status).toBe('fail');
      expect(result.completedNodes).toEqual(['start', 'a']);
      expect(statusAt(logsRoot, 'a').outcome).toBe('fail');
      expect(checkpointAt(logsRoot).status).toBe('failed');
    });
  }

  it('names the problem in the failure reason', async () => {
    const thrown = await run(source, { handlers: { s: { execute: () => Promise.reject(new Error('async boom')) } } });
    expect(thrown.result.failureReason).toBe('a failed: async boom');
    const invalid = await run(source, { handlers: { s: { execute: () => ({ status: 'great' }) as unknown as Outcome } } });
    expect(invalid.result.failureReason).toContain('invalid outcome');
  });

  it('isolates an event listener that throws', async () => {
    const { result } = await run(source, {
      handlers: { s: scripted().handler },
      onEvent: () => {
        throw new Error('listener bug');
      },
    });
    expect(result.status).toBe('success');
  });
});

describe('refusals before the first node', () => {
  async function refusal(source: string, options: Parameters<typeof runPipeline>[1] = {}): Promise<{ error: unknown; logsRoot: string }> {
    const loaded = loadPipeline(source);
    expect(loaded.graph).toBeDefined();
    const logsRoot = newLogsRoot();
    const error = await runPipeline(loaded.graph as Graph, { ...options, logsRoot }).then(
      () => undefined,
      (e: unknown) => e,
    );
    return { error, logsRoot };
  }

  it('refuses a graph with errors with ValidationError (ORCH_VALIDATION) and writes nothing', async () => {
    const { error, logsRoot } = await refusal(dot('  a [type="s"]\n  orphan [type="s"]\n  start -> a -> exit'), { registry: createDefaultRegistry().register('s', scripted().handler) });
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'ORCH_VALIDATION' });
    expect(existsSync(logsRoot)).toBe(false);
  });

  it('refuses LLM stages without a backend (ORCH_NO_BACKEND), naming them, and writes nothing', async () => {
    const { error, logsRoot } = await refusal(dot('  plan [prompt="p"]\n  start -> plan -> exit'));
    expect(error).toBeInstanceOf(MissingHandlerError);
    expect(error).toMatchObject({ code: 'ORCH_NO_BACKEND' });
    expect((error as Error).message).toContain('plan');
    expect(existsSync(logsRoot)).toBe(false);
  });

  it('refuses a node its handler cannot run (ORCH_NO_HANDLER)', async () => {
    // A sub-pipeline node that names no file: only loading a file checks that (rule sub_pipeline), validate(graph) does not.
    const { error, logsRoot } = await refusal(dot('  gate [type="pipeline", label="Approve?"]\n  start -> gate -> exit'), { backend: simulationBackend });
    expect(error).toBeInstanceOf(MissingHandlerError);
    expect(error).toMatchObject({ code: 'ORCH_NO_HANDLER' });
    expect(existsSync(logsRoot)).toBe(false);
  });

  it('refuses a node whose type no handler is registered for at validation (type_known is an error)', async () => {
    const { error, logsRoot } = await refusal(dot('  gate [type="nobody_registered_this", label="Approve?"]\n  start -> gate -> exit'), { backend: simulationBackend });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).diagnostics.filter((d) => d.severity === 'error').map((d) => d.rule)).toEqual(['type_known']);
    expect(existsSync(logsRoot)).toBe(false);
  });

  it('refuses a hexagon (wait.human by shape) node with ORCH_NO_HANDLER when the registry has no wait.human, instead of running it as an LLM stage', async () => {
    const registry = new HandlerRegistry();
    for (const type of ['start', 'exit', 'codergen'] as const) registry.register(type, createDefaultRegistry({ backend: simulationBackend }).get(type)!);
    const { error } = await refusal(dot('  gate [shape=hexagon, label="Approve?"]\n  start -> gate -> exit'), { registry });
    expect(error).toMatchObject({ code: 'ORCH_NO_HANDLER' });
  });
});
