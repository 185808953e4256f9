import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ValidationError, formatDiagnostic, loadPipeline, loadPipelineFile, validate, validateOrRaise, type Diagnostic, type Graph, type RunEvent } from '@orchestra/core';
import { BUILT_IN_RULES, escapeControl } from '@orchestra/core/loader';
import { answerCommand } from '../src/commands/answer.js';
import { resumeCommand, runCommand } from '../src/commands/run.js';
import { statusCommand } from '../src/commands/status.js';
import { validateCommand } from '../src/commands/validate.js';
import { createRunRenderer } from '../src/render/run-renderer.js';

/**
 * Text a hostile pipeline (or model, or tool) could hold: an OSC title
 * change ended by BEL, an SGR colour, CR, a C1 CSI, backspace, DEL, NEL,
 * bidirectional override and isolate, a line break. No `"` or `\`, so it
 * goes into a quoted DOT id as it is.
 */
const H = '\u001b]0;owned\u0007\u001b[31m\r\u009b2J\b\u007f\u0085\u202e\u2066\n';

/** What a terminal obeys: C0 and C1 controls, DEL, bidirectional marks, overrides and isolates. */
const OBEYED = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Fails naming the first character a terminal would obey (line breaks and tabs are fine). */
function expectShown(text: string, what: string): void {
  const found = OBEYED.exec(text);
  expect(found ? `${what}: U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} at ${found.index}: ${JSON.stringify(text.slice(Math.max(0, found.index - 60), found.index + 20))}` : '').toBe('');
}

function capture() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => (out.stdout += t), stderr: (t: string) => (out.stderr += t) } };
}

const dir = mkdtempSync(join(tmpdir(), 'orchestra-hostile-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** One pipeline for most rules: one start and one exit, every node and value hostile. */
const MAIN = `digraph "G${H}" {
  graph [goal="${H}", model_stylesheet="${H} {"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  "a${H}" [label="L${H}", fidelity="${H}", retry_target="${H}", max_retries="${H}", "prom\u009bt"="x", prompt="one ${H}"]
  "a${H}" [prompt="two ${H}"]
  "g${H}" [goal_gate=true, prompt="x"]
  "n${H}"
  "t${H}" [shape=parallelogram]
  "m${H}" [shape=house]
  "q${H}" [shape=hexagon, label="Q${H}"]
  "${H}${'x'.repeat(300)}" [prompt="long"]
  artifacts [prompt="x"]
  "o${H}" [prompt="orphan"]
  "d${H}" [prompt="dead end"]
  "l1${H}" [prompt="x"]
  "l2${H}" [prompt="x"]
  "y${H}" [type="${H}"]
  "p${H}" [type="pipeline", pipeline="${H}.dot"]
  "c${H}" [type="conference", prompt="x", conference.roles="r${H}", conference.tools="${H}"]
  start -> "a${H}" -> exit
  "a${H}" -> start
  exit -> "a${H}"
  "a${H}" -> "g${H}" -> "n${H}" -> "t${H}" -> "m${H}" -> "q${H}"
  "q${H}" -> exit [label="[A] one${H}"]
  "q${H}" -> "d${H}" [label="[A] two${H}", condition="outcome=suc${H}"]
  "a${H}" -> "l1${H}" [condition="outcome=sucess"]
  "l1${H}" -> "l2${H}" -> "l1${H}"
  "a${H}" -> "${H}${'x'.repeat(300)}" -> exit
  "a${H}" -> artifacts -> exit
  "a${H}" -> "y${H}" -> exit
  "a${H}" -> "p${H}" -> exit
  "a${H}" -> "c${H}" -> exit
  "a${H}" -> exit [condition="outcome==${H}"]
}
`;
const STARTS = `digraph "S${H}" {\n  "s1${H}" [shape=Mdiamond]\n  "s2${H}" [shape=Mdiamond]\n  exit [shape=Msquare]\n  "s1${H}" -> exit\n  "s2${H}" -> exit\n}\n`;
const EXITS = `digraph "E${H}" {\n  start [shape=Mdiamond]\n  "e1${H}" [shape=Msquare]\n  "e2${H}" [shape=Msquare]\n  start -> "e1${H}"\n  start -> "e2${H}"\n}\n`;
const SYNTAX = `digraph G {\n  a -> b\n}\n\u202e\u009b\u0085${H}`;

/** MAIN with an edge to a node that does not exist, as only code can build (edge_target_exists). */
function builtInCode(): Graph {
  const graph = loadPipeline(MAIN).graph as Graph;
  return { ...graph, edges: [...graph.edges, { from: `a${H}`, to: `missing${H}`, attributes: {}, origins: {} }] };
}

describe('text from a hostile pipeline is shown, never obeyed', () => {
  const files = [file(`main${H}.dot`, MAIN), file('starts.dot', STARTS), file('exits.dot', EXITS), file('syntax.dot', SYNTAX)];

  it('makes every built-in lint rule fire (so a new rule is covered too)', async () => {
    const fired = new Set<string>();
    for (const f of files) for (const d of (await loadPipelineFile(f)).diagnostics) fired.add(d.rule);
    for (const d of validate(builtInCode())) fired.add(d.rule);
    expect(BUILT_IN_RULES.map((r) => r.name).filter((name) => !fired.has(name))).toEqual([]);
    expect([...fired]).toEqual(expect.arrayContaining(['syntax', 'node_id', 'node_redeclared', 'sub_pipeline']));
  });

  it('orchestra validate prints every diagnostic escaped, one line each (two with its fix)', async () => {
    const { out, io } = capture();
    expect(await validateCommand(files, {}, io)).toBe(1);
    expectShown(out.stdout, 'validate stdout');
    expectShown(out.stderr, 'validate stderr');
    const heads = files.map((f) => `${escapeControl(f, { keepNewlines: false })}:`);
    for (const line of out.stdout.trimEnd().split('\n')) expect(line.startsWith('    fix: ') || heads.some((head) => line.startsWith(head)), line).toBe(true);
    // The pipeline's text is all there, escaped.
    expect(out.stdout).toContain('node o\\e]0;owned\\x07\\e[31m\\r\\x9b2J\\b\\x7f\\x85\\u202e\\u2066\\n cannot be reached');
  });

  it('orchestra validate --json escapes what JSON.stringify leaves raw, and keeps the text whole', async () => {
    const { out, io } = capture();
    expect(await validateCommand(files, { json: true }, io)).toBe(1);
    expectShown(out.stdout, 'validate --json');
    const parsed = JSON.parse(out.stdout) as { message: string; node_id: string | null }[];
    expect(parsed.map((d) => d.node_id)).toContain(`o${H}`);
  });

  it('formatDiagnostic and ValidationError escape diagnostics of a graph built in code', () => {
    const diagnostics: Diagnostic[] = validate(builtInCode());
    for (const d of diagnostics) expectShown(formatDiagnostic(d, `f${H}.dot`), d.rule);
    let error: unknown;
    try {
      validateOrRaise(builtInCode());
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expectShown((error as ValidationError).message, 'ValidationError');
  });
});

describe('a run of a hostile pipeline: the console, status, answer', () => {
  const GATE = `digraph "G${H}" {
  graph [goal="${H}"]
  start [shape=Mdiamond]
  exit [shape=Msquare]
  work [shape=parallelogram, label="W${H}", tool_command="true"]
  gate [shape=hexagon, label="Q${H}"]
  start -> work -> gate
  gate -> exit [label="[A] yes${H}"]
  gate -> work [label="[B] no${H}"]
}
`;

  it('shows the pipeline name, labels, questions and options escaped everywhere', async () => {
    const source = file(`gate${H}.dot`, GATE);
    const logsDir = join(dir, `run${H}`);
    const flags = { simulate: true, live: false, colour: false };

    const run = capture();
    expect(await runCommand(source, { ...flags, park: true, logsDir }, run.io)).toBe(3);
    expectShown(run.out.stdout, 'run stdout');
    expectShown(run.out.stderr, 'run stderr');
    expect(run.out.stderr).toContain('[A] yes\\e]0;owned');

    for (const json of [false, true]) {
      const status = capture();
      expect(await statusCommand(logsDir, { json }, status.io)).toBe(3);
      expectShown(status.out.stdout, `status${json ? ' --json' : ''}`);
      expect(status.out.stdout).toContain(json ? 'G\\u001b]0;owned' : 'G\\e]0;owned');
    }

    const refused = capture();
    expect(await answerCommand(logsDir, `maybe${H}`, {}, refused.io)).toBe(2);
    expectShown(refused.out.stderr, 'answer refusal');
    expect(refused.out.stderr).toContain('answer with A (yes\\e]0;owned');

    const answered = capture();
    expect(await answerCommand(logsDir, 'A', {}, answered.io)).toBe(0);
    expectShown(answered.out.stdout, 'answer');

    const resumed = capture();
    expect(await resumeCommand(logsDir, flags, resumed.io)).toBe(0);
    expectShown(resumed.out.stdout, 'resume stdout');
    expectShown(resumed.out.stderr, 'resume stderr');
    expect(resumed.out.stdout).toContain('human: gate: Q\\e]0;owned');
  }, 30_000);

  it('the run renderer escapes every event, in text and JSON, with the live line on', () => {
    const at = '2026-11-23T00:00:00.000Z';
    const id = `n${H}`;
    const usage = { inputTokens: 1, outputTokens: 2, totalTokens: 3 };
    // A record over every event type: a new type fails the type-check until it is added here.
    const events: { [T in RunEvent['type']]: Extract<RunEvent, { type: T }> } = {
      'pipeline.started': { type: 'pipeline.started', pipeline: `G${H}`, logsRoot: `/r${H}`, resumed: false, startNode: id, at },
      'pipeline.completed': { type: 'pipeline.completed', status: 'success', durationMs: 1, nodesRun: 1, retries: 0, usage, at },
      'pipeline.failed': { type: 'pipeline.failed', failureReason: H, durationMs: 1, nodesRun: 1, retries: 0, at },
      'pipeline.interrupted': { type: 'pipeline.interrupted', reason: H, durationMs: 1, lastNode: id, at },
      'pipeline.parked': { type: 'pipeline.parked', nodeId: id, questionText: H, durationMs: 1, reason: H, at },
      'run.orphans_stopped': { type: 'run.orphans_stopped', processes: [{ pgid: 1, node: id, command: H }], at },
      'run.orphans_unverified': { type: 'run.orphans_unverified', processes: [{ pgid: 1, node: id, command: H, reason: H }], at },
      'pipeline.restarted': { type: 'pipeline.restarted', from: id, to: id, logsRoot: `/r${H}`, at },
      'stage.started': { type: 'stage.started', nodeId: id, label: H, handlerType: H, index: 1, attempt: 1, at },
      'stage.completed': { type: 'stage.completed', nodeId: id, index: 1, status: 'partial_success', durationMs: 1, notes: H, usage, phases: { [H]: { calls: 1, usage } }, at },
      'stage.failed': { type: 'stage.failed', nodeId: id, index: 1, failureReason: H, willRetry: true, durationMs: 1, at },
      'stage.retrying': { type: 'stage.retrying', nodeId: id, index: 1, attempt: 2, delayMs: 1, at },
      'edge.selected': { type: 'edge.selected', from: id, to: id, label: H, reason: 'condition', at },
      'parallel.started': { type: 'parallel.started', nodeId: id, branchCount: 2, joinPolicy: H, maxParallel: 2, at },
      'parallel.branch_started': { type: 'parallel.branch_started', nodeId: id, branch: `b${H}`, index: 0, at },
      'parallel.branch_completed': { type: 'parallel.branch_completed', nodeId: id, branch: `c${H}`, index: 1, status: 'success', durationMs: 1, at },
      'parallel.completed': { type: 'parallel.completed', nodeId: id, durationMs: 1, successCount: 0, failureCount: 1, at },
      'interview.started': { type: 'interview.started', nodeId: id, questionText: H, questionType: 'MULTIPLE_CHOICE', at },
      'interview.completed': { type: 'interview.completed', nodeId: id, questionText: H, answerValue: H, durationMs: 1, at },
      'interview.timeout': { type: 'interview.timeout', nodeId: id, questionText: H, durationMs: 1, at },
      'human.interaction': { type: 'human.interaction', nodeId: id, questionText: H, questionType: 'MULTIPLE_CHOICE', answerValue: H, answerText: H, selectedKey: H, selectedLabel: H, at },
      'conversation.reply': { type: 'conversation.reply', nodeId: id, turn: 1, replayed: false, at },
      'conversation.resumed': { type: 'conversation.resumed', nodeId: id, turns: 1, mode: 'restored', at },
      'conversation.ended': { type: 'conversation.ended', nodeId: id, turns: 1, command: H, at },
      'llm.delta': { type: 'llm.delta', nodeId: id, text: H, at },
      'llm.response': { type: 'llm.response', nodeId: id, model: H, durationMs: 1, usage, phase: H, at },
      'agent.tool_call': { type: 'agent.tool_call', nodeId: id, tool: H, callId: H, status: 'ok', durationMs: 1, detail: H, at },
      'conference.role.started': { type: 'conference.role.started', nodeId: id, role: `r${H}`, tier: H, at },
      'conference.role.rejected': { type: 'conference.role.rejected', nodeId: id, role: `r${H}`, reason: H, final: false, at },
      'conference.role.completed': { type: 'conference.role.completed', nodeId: id, role: `r${H}`, status: 'ungrounded', durationMs: 1, usage, at },
      'goal_gate.unsatisfied': { type: 'goal_gate.unsatisfied', nodeId: id, retryTarget: id, at },
      'checkpoint.saved': { type: 'checkpoint.saved', nodeId: id, completedNodes: 1, file: true, at },
    };
    const order: RunEvent[] = [events['pipeline.started'], events['parallel.started'], events['parallel.branch_started'], events['stage.started'], events['llm.delta']];
    for (const event of Object.values(events)) if (!order.includes(event)) order.push(event);
    for (const mode of ['normal', 'json'] as const) {
      const { out, io } = capture();
      const renderer = createRunRenderer(io, { mode, live: true, colour: false });
      for (const event of order) renderer.onEvent(event);
      renderer.onEvent(events['stage.started']); // the live line again, for the summary to clear
      renderer.summary({ status: 'fail', completedNodes: [id], context: {}, logsRoot: `/r${H}`, failureReason: H, retries: 1, durationMs: 5, usage });
      renderer.stop();
      expectShown(out.stdout, `${mode} stdout`);
      // The live line is the renderer's own: it clears its line with CR and ESC [2K.
      expectShown(out.stderr.replaceAll('\r\u001b[2K', ''), `${mode} stderr`);
      if (mode === 'normal') expect(out.stdout).toContain(`✗ ${'n\\e]0;owned'}`);
      else expect(out.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as RunEvent)).toContainEqual(events['stage.failed']);
    }
  });
});
