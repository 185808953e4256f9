import { SpanKind, SpanStatusCode, context as otelContext, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ChildRunOrigin, RunObserver } from '../engine/child-events.js';
import type { RunEvent } from '../engine/events.js';
import type { TokenUsage } from '../engine/usage.js';
import * as A from './span-attributes.js';

/** Options of {@link createRunTracing}. */
export interface RunTracingOptions {
  /**
   * The current time in milliseconds since the epoch, fractions allowed
   * (default: `performance.timeOrigin + performance.now()`). Spans start and
   * end when their events arrive; a model or tool call's span starts its
   * `durationMs` before its event.
   */
  now?: () => number;
  /** The context a run's root span is started in (default: the active one, so a caller's span becomes its parent). */
  context?: Context;
}

/** A run's tracing: an observer of its events (and its child runs'), and a way to close what a stopped process left open. */
export interface RunTracing extends Required<RunObserver> {
  /**
   * Ends every span still open (the process stops before the run ends), with
   * `orchestra.run.status` (and `orchestra.stage.status`) `abandoned`. A run
   * that ended has nothing left open; calling it then does nothing.
   */
  end(): void;
}

/** The spans of one run (a `loop_restart` starts another). */
interface RunState {
  span: Span;
  logsRoot: string;
  runId: string;
  /** The open attempt span of each node. */
  stages: Map<string, Span>;
  /** The branch span each node of an open parallel branch runs in. */
  branchOf: Map<string, Span>;
  /** Open branch spans by `<parallel node>\0<branch>`. */
  branches: Map<string, Span>;
  /** Open conference role spans by `<node>\0<role>`. */
  roles: Map<string, Span>;
  /** A child run: where it was started (its key in `children`). */
  origin?: string;
}

function defaultNow(): number {
  return performance.timeOrigin + performance.now();
}

/** The run's id: the last segment of where it is kept (a run directory's name). */
function runIdOf(logsRoot: string): string {
  const parts = logsRoot.split(/[\\/]/).filter((p) => p !== '');
  return parts[parts.length - 1] ?? logsRoot;
}

/** `gen_ai.provider.name` for a provider as `llm.response` names it (the semantic conventions' name where it differs). */
function genAiProvider(provider: string): string {
  return provider === 'gemini' ? 'gcp.gemini' : provider;
}

function usageAttributes(usage: TokenUsage | undefined): Attributes {
  if (!usage) return {};
  return {
    [A.USAGE_INPUT_TOKENS]: usage.inputTokens,
    [A.USAGE_OUTPUT_TOKENS]: usage.outputTokens,
    [A.USAGE_TOTAL_TOKENS]: usage.totalTokens,
    ...(usage.cost ? { [A.USAGE_COST]: usage.cost.amount, [A.USAGE_COST_CURRENCY]: usage.cost.currency } : {}),
  };
}

const key = (a: string, b: string) => `${a}\u0000${b}`;

/**
 * Turns a run's events into OpenTelemetry spans on `tracer` (see
 * docs/tracing.md): a root span per run (`run <pipeline>`), a span per stage
 * attempt under it (`stage <node>`), and under those the model calls
 * (`chat <model>`, with the GenAI semantic conventions' attributes: model,
 * provider, input and output tokens) and the agent's tool calls
 * (`execute_tool <tool>`). Parallel branches (`branch <id>`) nest under
 * their parallel node's span, their nodes under them; a conference's roles
 * (`role <name>`) under the conference node; child runs (sub-pipelines,
 * manager loops) under the node that started them. Every span carries
 * `orchestra.run.id`, and those of a node `orchestra.node.id`. A failed
 * stage, run or tool call has the error status.
 *
 * Pass `onEvent` and `onChildEvent` as a run's options (or a supervisor's
 * `observe`); the spans end as the events arrive, so exporting and flushing
 * them is the tracer provider's business. Nothing here runs unless it is
 * called: a run without it pays nothing.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from 'node:fs';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { trace } from '@opentelemetry/api';
 * import { loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
 * import { createRunTracing } from '@orchestra/core/tracing';
 *
 * const { graph } = loadPipeline('digraph G { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit }');
 * if (!graph) throw new Error('invalid pipeline');
 * // With a registered tracer provider (the OpenTelemetry SDK), the spans are exported; without one they cost next to nothing.
 * const tracing = createRunTracing(trace.getTracer('my-app'));
 * const result = await runPipeline(graph, {
 *   backend: simulationBackend,
 *   logsRoot: join(mkdtempSync(join(tmpdir(), 'traced-')), 'run'),
 *   onEvent: tracing.onEvent,
 *   onChildEvent: tracing.onChildEvent,
 * });
 * console.log(result.status);
 * // Prints:
 * // success
 * ```
 */
export function createRunTracing(tracer: Tracer, options: RunTracingOptions = {}): RunTracing {
  const now = options.now ?? defaultNow;
  const base = options.context ?? otelContext.active();
  /** The run the caller's own events are about. */
  let top: RunState | undefined;
  /** The last top-level run that ended on a `loop_restart`: the next one links to it. */
  let topRestarted: Span | undefined;
  /** Child runs by where they were started. */
  const children = new Map<string, RunState>();
  const childRestarted = new Map<string, Span>();
  /** Open runs by where they are kept now (how a child finds its parent). */
  const byLocation = new Map<string, RunState>();

  const start = (name: string, parent: Span | undefined, attributes: Attributes, at: number, kind: SpanKind = SpanKind.INTERNAL): Span =>
    tracer.startSpan(name, { kind, attributes, startTime: at }, parent ? trace.setSpan(base, parent) : base);

  const nodeParent = (run: RunState, nodeId: string): Span => run.stages.get(nodeId) ?? run.branchOf.get(nodeId) ?? run.span;

  /** Ends what the run left open and the run's span. */
  const close = (run: RunState, status: string, at: number, attributes: Attributes, error?: string) => {
    for (const span of run.roles.values()) span.end(at);
    for (const [nodeId, span] of run.stages) {
      span.setAttributes({ [A.STAGE_STATUS]: status, [A.NODE_ID]: nodeId });
      span.end(at);
    }
    for (const span of run.branches.values()) span.end(at);
    run.roles.clear();
    run.stages.clear();
    run.branches.clear();
    run.branchOf.clear();
    run.span.setAttributes({ [A.RUN_STATUS]: status, ...attributes });
    if (error !== undefined) run.span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    run.span.end(at);
    if (byLocation.get(run.logsRoot) === run) byLocation.delete(run.logsRoot);
    if (run.origin !== undefined && children.get(run.origin) === run) children.delete(run.origin);
  };

  const handle = (event: RunEvent, origin: ChildRunOrigin | undefined): void => {
    if (event.type === 'llm.delta' || event.type === 'checkpoint.saved') return; // the hot path: one per token
    const at = now();
    if (event.type === 'pipeline.started') {
      const parentRun = origin ? byLocation.get(origin.parentLogsRoot) : undefined;
      const parent = origin && parentRun ? nodeParent(parentRun, origin.nodeId) : undefined;
      const previous = origin ? childRestarted.get(origin.logsRoot) : topRestarted;
      if (origin) childRestarted.delete(origin.logsRoot);
      else topRestarted = undefined;
      const runId = runIdOf(event.logsRoot);
      const span = tracer.startSpan(
        `run ${event.pipeline}`,
        {
          kind: SpanKind.INTERNAL,
          startTime: at,
          attributes: {
            [A.RUN_ID]: runId,
            [A.RUN_LOCATION]: event.logsRoot,
            [A.PIPELINE]: event.pipeline,
            [A.RUN_RESUMED]: event.resumed,
            [A.RUN_START_NODE]: event.startNode,
            ...(origin && parentRun ? { [A.PARENT_RUN_ID]: parentRun.runId, [A.PARENT_NODE_ID]: origin.nodeId } : {}),
          },
          ...(previous ? { links: [{ context: previous.spanContext(), attributes: { [A.LINK_REASON]: 'loop_restart' } }] } : {}),
        },
        parent ? trace.setSpan(base, parent) : base,
      );
      const run: RunState = { span, logsRoot: event.logsRoot, runId, stages: new Map(), branchOf: new Map(), branches: new Map(), roles: new Map(), ...(origin ? { origin: origin.logsRoot } : {}) };
      if (origin) children.set(origin.logsRoot, run);
      else top = run;
      byLocation.set(event.logsRoot, run);
      return;
    }
    const run = origin ? children.get(origin.logsRoot) : top;
    if (!run) return; // events of a run whose start this tracer did not see
    switch (event.type) {
      case 'pipeline.completed':
        close(run, event.status, at, { [A.RUN_NODES_RUN]: event.nodesRun, [A.RUN_RETRIES]: event.retries, ...usageAttributes(event.usage) });
        break;
      case 'pipeline.failed':
        close(run, 'fail', at, { [A.RUN_NODES_RUN]: event.nodesRun, [A.RUN_RETRIES]: event.retries, [A.FAILURE_REASON]: event.failureReason, ...usageAttributes(event.usage) }, event.failureReason);
        break;
      case 'pipeline.interrupted':
        close(run, 'interrupted', at, { [A.RUN_STOP_REASON]: event.reason });
        break;
      case 'pipeline.parked':
        close(run, 'parked', at, { [A.PARKED_NODE_ID]: event.nodeId });
        break;
      case 'pipeline.restarted':
        close(run, 'restarted', at, { [A.RUN_RESTARTED_TO]: event.logsRoot });
        if (origin) childRestarted.set(origin.logsRoot, run.span);
        else topRestarted = run.span;
        break;
      case 'stage.started': {
        run.stages.get(event.nodeId)?.end(at);
        const span = start(
          `stage ${event.nodeId}`,
          run.branchOf.get(event.nodeId) ?? run.span,
          { [A.RUN_ID]: run.runId, [A.NODE_ID]: event.nodeId, [A.NODE_LABEL]: event.label, [A.NODE_HANDLER]: event.handlerType, [A.STAGE_INDEX]: event.index, [A.STAGE_ATTEMPT]: event.attempt },
          at,
        );
        run.stages.set(event.nodeId, span);
        break;
      }
      case 'stage.completed': {
        const span = run.stages.get(event.nodeId);
        if (!span) break;
        run.stages.delete(event.nodeId);
        span.setAttributes({ [A.STAGE_STATUS]: event.status, ...usageAttributes(event.usage) });
        span.end(at);
        break;
      }
      case 'stage.failed': {
        const span = run.stages.get(event.nodeId);
        if (!span) break;
        run.stages.delete(event.nodeId);
        span.setAttributes({ [A.STAGE_STATUS]: 'fail', [A.STAGE_WILL_RETRY]: event.willRetry, [A.FAILURE_REASON]: event.failureReason, ...usageAttributes(event.usage) });
        span.setStatus({ code: SpanStatusCode.ERROR, message: event.failureReason });
        span.end(at);
        break;
      }
      case 'edge.selected': {
        // A node reached from a node of an open branch runs in that branch.
        const branch = run.branchOf.get(event.from);
        if (branch && !run.branchOf.has(event.to)) run.branchOf.set(event.to, branch);
        break;
      }
      case 'parallel.branch_started': {
        const span = start(`branch ${event.branch}`, run.stages.get(event.nodeId) ?? run.span, { [A.RUN_ID]: run.runId, [A.NODE_ID]: event.nodeId, [A.BRANCH_ID]: event.branch, [A.BRANCH_INDEX]: event.index }, at);
        run.branches.set(key(event.nodeId, event.branch), span);
        run.branchOf.set(event.branch, span);
        break;
      }
      case 'parallel.branch_completed': {
        const span = run.branches.get(key(event.nodeId, event.branch));
        if (!span) break;
        run.branches.delete(key(event.nodeId, event.branch));
        for (const [nodeId, owner] of run.branchOf) if (owner === span) run.branchOf.delete(nodeId);
        span.setAttribute(A.STAGE_STATUS, event.status);
        if (event.status === 'fail') span.setStatus({ code: SpanStatusCode.ERROR, message: `branch ${event.branch} failed` });
        span.end(at);
        break;
      }
      case 'conference.role.started': {
        const span = start(`role ${event.role}`, run.stages.get(event.nodeId) ?? run.span, { [A.RUN_ID]: run.runId, [A.NODE_ID]: event.nodeId, [A.ROLE]: event.role, [A.ROLE_TIER]: event.tier }, at);
        run.roles.set(key(event.nodeId, event.role), span);
        break;
      }
      case 'conference.role.completed': {
        const span = run.roles.get(key(event.nodeId, event.role));
        if (!span) break;
        run.roles.delete(key(event.nodeId, event.role));
        span.setAttributes({ [A.ROLE_STATUS]: event.status, ...usageAttributes(event.usage) });
        span.end(at);
        break;
      }
      case 'llm.response': {
        const role = event.phase?.startsWith('role:') ? run.roles.get(key(event.nodeId, event.phase.slice(5))) : undefined;
        const attributes: Attributes = {
          [A.GEN_AI_OPERATION]: 'chat',
          [A.GEN_AI_REQUEST_MODEL]: event.model,
          [A.GEN_AI_RESPONSE_MODEL]: event.model,
          ...(event.provider ? { [A.GEN_AI_PROVIDER]: genAiProvider(event.provider), [A.GEN_AI_SYSTEM]: genAiProvider(event.provider) } : {}),
          ...(event.usage ? { [A.GEN_AI_INPUT_TOKENS]: event.usage.inputTokens, [A.GEN_AI_OUTPUT_TOKENS]: event.usage.outputTokens } : {}),
          ...(event.usage?.cost ? { [A.USAGE_COST]: event.usage.cost.amount, [A.USAGE_COST_CURRENCY]: event.usage.cost.currency } : {}),
          [A.RUN_ID]: run.runId,
          [A.NODE_ID]: event.nodeId,
          ...(event.phase ? { [A.LLM_PHASE]: event.phase } : {}),
          ...(event.turn !== undefined ? { [A.LLM_TURN]: event.turn } : {}),
        };
        start(`chat ${event.model}`, role ?? nodeParent(run, event.nodeId), attributes, at - event.durationMs, SpanKind.CLIENT).end(at);
        break;
      }
      case 'agent.tool_call': {
        const span = start(
          `execute_tool ${event.tool}`,
          nodeParent(run, event.nodeId),
          {
            [A.GEN_AI_OPERATION]: 'execute_tool',
            [A.GEN_AI_TOOL_NAME]: event.tool,
            [A.GEN_AI_TOOL_CALL_ID]: event.callId,
            [A.RUN_ID]: run.runId,
            [A.NODE_ID]: event.nodeId,
            [A.TOOL_STATUS]: event.status,
            ...(event.detail !== undefined ? { [A.TOOL_DETAIL]: event.detail } : {}),
          },
          at - event.durationMs,
        );
        if (event.status === 'error' || event.status === 'refused') {
          span.setAttribute(A.ERROR_TYPE, event.status);
          span.setStatus({ code: SpanStatusCode.ERROR, message: `tool call ${event.status}` });
        }
        span.end(at);
        break;
      }
      case 'interview.started':
      case 'interview.completed':
      case 'interview.timeout':
      case 'goal_gate.unsatisfied':
      case 'stage.retrying':
      case 'parallel.started':
      case 'parallel.completed':
        (run.stages.get(event.nodeId) ?? run.span).addEvent(event.type, at);
        break;
      default:
        break;
    }
  };

  return {
    onEvent: (event) => handle(event, undefined),
    onChildEvent: (event, origin) => handle(event, origin),
    end: () => {
      const at = now();
      // Innermost first (children start after their parents): a child's spans end before the stage that started it.
      for (const run of [...byLocation.values()].reverse()) close(run, 'abandoned', at, {});
      children.clear();
      top = undefined;
    },
  };
}
