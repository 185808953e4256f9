/**
 * A finished run with a conference stage, written by hand in the documented
 * run-directory format (docs/run-directory.md) and the conference contract:
 * `start -> draft -> review -> exit` (`fix` not reached), where `review` is `type="conference"`
 * with two receipts and three roles (answered, abstained, ungrounded after a
 * rejection). No engine and no model: the server reads it as any run.
 * {@link writeConferenceRunUnderWay} writes the same run while `review` is
 * running, held by this process, and finishes it on demand.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processStartTime } from '@orchestra/core/store';

export const CONFERENCE_PIPELINE = `digraph SceneReview {
  goal="Check scene 2 against the canon"
  start  [shape=Mdiamond]
  exit   [shape=Msquare]
  draft  [label="Draft notes", prompt="Summarise scene 2"]
  review [type="conference", label="Canon review", prompt="Does scene 2 contradict the canon?", conference.roles="critic,continuity,editor", conference.tools="read_file,search_text"]
  fix    [label="Fix the scene", prompt="Fix scene 2 where the conference found it contradicts the canon"]
  start -> draft -> review
  review -> exit [condition="outcome=success"]
  review -> fix  [condition="outcome=fail"]
  fix -> exit
}
`;

export const QUESTION = 'Does scene 2 contradict the canon?';
export const CANON_RECEIPT = 'rcpt_3f9a0c1b2d4e5f60';
export const SEARCH_RECEIPT = 'rcpt_8b1d2e3f4a5b6c7d';
/** What the ungrounded role cites: no receipt of the conference. */
export const UNKNOWN_RECEIPT = 'rcpt_ffffffffffffffff';
/** The ungrounded role's reply: markup that must show as text. */
export const SCRIPT_REPLY = 'The draft has a stray <script>window.pwned = true</script> tag in line 3; otherwise it reads well.\nEvidence: receipt_id: rcpt_ffffffffffffffff';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const lines = (values: unknown[]) => values.map((v) => `${JSON.stringify(v)}\n`).join('');

function receipt(receipt_id: string, tool: string, args: Record<string, unknown>, payload: string, at: string) {
  return { receipt_id, tool, arguments: args, status: 'ok', payload, sha256: sha256(payload), at };
}

export const RECEIPTS = [
  receipt(CANON_RECEIPT, 'read_file', { path: 'canon.md' }, "# Canon\n\nMara's brother Tomas died in the winter war, two years before scene 2.\nThe lighthouse has been dark since.\n", '2026-11-27T01:02:03.456Z'),
  receipt(SEARCH_RECEIPT, 'search_text', { pattern: 'brother', path: 'scenes/' }, "scenes/scene-2.md:14: Mara's brother waves from the lighthouse door.\n", '2026-11-27T01:02:04.012Z'),
];

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output });

export const ROLES = [
  {
    role: 'critic',
    tier: 'T3',
    evidence_rule: 'receipt',
    model: 'demo',
    status: 'answered',
    reply: `Yes. Scene 2 has Tomas alive at the lighthouse door (scene-2.md:14), but the canon has him dead two years earlier.\nEvidence: receipt_id: ${CANON_RECEIPT}, ${SEARCH_RECEIPT}`,
    evidence_line: `Evidence: receipt_id: ${CANON_RECEIPT}, ${SEARCH_RECEIPT}`,
    rejections: [],
    calls: 1,
    usage: usage(120, 40),
    duration_ms: 812,
  },
  {
    role: 'continuity',
    tier: 'T1',
    evidence_rule: 'any',
    model: 'demo',
    status: 'abstained',
    reply: 'ABSTAIN: the receipts do not say when scene 2 takes place.',
    reason: 'the receipts do not say when scene 2 takes place',
    rejections: [],
    calls: 1,
    usage: usage(100, 12),
    duration_ms: 430,
  },
  {
    role: 'editor',
    tier: 'T5',
    evidence_rule: 'receipt',
    model: 'demo',
    status: 'ungrounded',
    reply: SCRIPT_REPLY,
    evidence_line: `Evidence: receipt_id: ${UNKNOWN_RECEIPT}`,
    reason: `cites ${UNKNOWN_RECEIPT}, which is no receipt of this conference`,
    rejections: [{ reply: 'It reads well.', reason: 'no Evidence: line' }],
    calls: 2,
    usage: usage(210, 50),
    duration_ms: 1290,
  },
];

const CONFERENCE = {
  format: 'orchestra.conference/1',
  node_id: 'review',
  question: QUESTION,
  chief: { model: 'demo', reply: 'I read the canon and searched the scenes for the brother.', calls: 3, receipts: [CANON_RECEIPT, SEARCH_RECEIPT], usage: usage(300, 60) },
  evidence: RECEIPTS,
  roles: ROLES,
  quorum: 1,
  answered: 1,
  status: 'success',
};

/** The events of the run, as the engine records them (camelCase), `at` counting up from `start`. */
function events(logsRoot: string): Record<string, unknown>[] {
  const tokens = (u: { input_tokens: number; output_tokens: number; total_tokens: number }) => ({ inputTokens: u.input_tokens, outputTokens: u.output_tokens, totalTokens: u.total_tokens });
  const list: Record<string, unknown>[] = [
    { type: 'pipeline.started', pipeline: 'SceneReview', logsRoot, resumed: false, startNode: 'start' },
    { type: 'stage.started', nodeId: 'start', label: 'start', handlerType: 'start', index: 0, attempt: 1 },
    { type: 'stage.completed', nodeId: 'start', index: 0, status: 'success', durationMs: 1, notes: 'start' },
    { type: 'edge.selected', from: 'start', to: 'draft', label: '', reason: 'weight' },
    { type: 'checkpoint.saved', nodeId: 'start', completedNodes: 1, file: false },
    { type: 'stage.started', nodeId: 'draft', label: 'Draft notes', handlerType: 'codergen', index: 1, attempt: 1 },
    { type: 'stage.completed', nodeId: 'draft', index: 1, status: 'success', durationMs: 2, notes: 'Stage completed: draft' },
    { type: 'edge.selected', from: 'draft', to: 'review', label: '', reason: 'weight' },
    { type: 'checkpoint.saved', nodeId: 'draft', completedNodes: 2, file: false },
    { type: 'stage.started', nodeId: 'review', label: 'Canon review', handlerType: 'conference', index: 2, attempt: 1 },
    { type: 'agent.tool_call', nodeId: 'review', tool: 'read_file', callId: 'c1', status: 'ok', durationMs: 3, detail: 'canon.md' },
    { type: 'agent.tool_call', nodeId: 'review', tool: 'search_text', callId: 'c2', status: 'ok', durationMs: 4, detail: 'brother' },
    { type: 'llm.response', nodeId: 'review', model: 'demo', durationMs: 900, usage: tokens(CONFERENCE.chief.usage), phase: 'chief' },
    ...ROLES.map((r) => ({ type: 'conference.role.started', nodeId: 'review', role: r.role, tier: r.tier })),
    { type: 'conference.role.completed', nodeId: 'review', role: 'continuity', status: 'abstained', durationMs: 430, usage: tokens(ROLES[1]!.usage) },
    { type: 'conference.role.rejected', nodeId: 'review', role: 'editor', reason: 'no Evidence: line', final: false },
    { type: 'conference.role.completed', nodeId: 'review', role: 'critic', status: 'answered', durationMs: 812, usage: tokens(ROLES[0]!.usage) },
    { type: 'conference.role.rejected', nodeId: 'review', role: 'editor', reason: ROLES[2]!.reason, final: true },
    { type: 'conference.role.completed', nodeId: 'review', role: 'editor', status: 'ungrounded', durationMs: 1290, usage: tokens(ROLES[2]!.usage) },
    { type: 'stage.completed', nodeId: 'review', index: 2, status: 'success', durationMs: 2400, notes: '1 of 3 roles answered' },
    { type: 'edge.selected', from: 'review', to: 'exit', label: '', reason: 'condition' },
    { type: 'checkpoint.saved', nodeId: 'review', completedNodes: 3, file: false },
    { type: 'stage.started', nodeId: 'exit', label: 'exit', handlerType: 'exit', index: 3, attempt: 1 },
    { type: 'stage.completed', nodeId: 'exit', index: 3, status: 'success', durationMs: 1 },
    { type: 'checkpoint.saved', nodeId: 'exit', completedNodes: 4, file: true },
    { type: 'pipeline.completed', status: 'success', durationMs: 2500, nodesRun: 4, retries: 0 },
  ];
  const start = Date.parse('2026-11-27T01:02:00.000Z');
  return list.map((event, i) => ({ ...event, at: new Date(start + i * 250).toISOString() }));
}

function status(notes: string, context_updates: Record<string, unknown> = {}) {
  return { outcome: 'success', preferred_label: '', suggested_next_ids: [], context_updates, notes };
}

const DRAFT_RESPONSE = 'Scene 2: Mara climbs to the lighthouse; her brother waves from the door.';
const CONFERENCE_CONTEXT = {
  'conference.critic.status': 'answered',
  'conference.critic.reply': ROLES[0]!.reply,
  'conference.continuity.status': 'abstained',
  'conference.continuity.reply': ROLES[1]!.reply,
  'conference.editor.status': 'ungrounded',
  'conference.editor.reply': ROLES[2]!.reply,
  'conference.answered': 1,
  last_stage: 'review',
  last_response: ROLES[0]!.reply,
};
const JOURNAL = [
  { seq: 1, node: 'start', status: 'success', retries: 0, context: { current_node: 'start', outcome: 'success' }, next: 'draft' },
  { seq: 2, node: 'draft', status: 'success', retries: 0, context: { current_node: 'draft', last_stage: 'draft', last_response: DRAFT_RESPONSE, outcome: 'success' }, next: 'review' },
  { seq: 3, node: 'review', status: 'success', retries: 0, context: { current_node: 'review', ...CONFERENCE_CONTEXT, outcome: 'success' }, next: 'exit', usage: usage(730, 162) },
  { seq: 4, node: 'exit', status: 'success', retries: 0, context: { current_node: 'exit', outcome: 'success' }, next: null, end: 'completed' },
];

/** checkpoint.json after `journal_seq` journal lines: running at `review` (2) or completed (4). */
function checkpoint(seq: 2 | 4): string {
  const done = seq === 4;
  const completed = ['start', 'draft', 'review', 'exit'].slice(0, seq);
  return `${JSON.stringify({
    format: 'orchestra.checkpoint/1',
    timestamp: done ? '2026-11-27T01:02:06.500Z' : '2026-11-27T01:02:02.000Z',
    status: done ? 'completed' : 'running',
    current_node: completed.at(-1),
    next_node: done ? null : 'review',
    completed_nodes: completed,
    node_retries: {},
    node_outcomes: Object.fromEntries(completed.map((n) => [n, 'success'])),
    total_retries: 0,
    context: { 'graph.goal': 'Check scene 2 against the canon', ...Object.assign({}, ...JOURNAL.slice(0, seq).map((j) => j.context)) },
    logs: [],
    journal_seq: seq,
    failure_reason: null,
    restarted_to: null,
    node_progress: {},
    ...(done ? { token_usage: usage(730, 162) } : {}),
  })}\n`;
}

/** The run's events while `review` waits for its last role (the critic has answered, the editor not yet), and the rest. */
function eventsSplit(dir: string): [Record<string, unknown>[], Record<string, unknown>[]] {
  const all = events(dir);
  const cut = all.findIndex((e) => e.type === 'conference.role.completed' && e.role === 'critic') + 1;
  return [all.slice(0, cut), all.slice(cut)];
}

function writer(dir: string) {
  return (name: string, text: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  };
}

/** The run up to `review` under way: its receipts gathered, two roles done, the third working; no conference.json yet. */
function writeUnderWay(dir: string, id: string): void {
  const write = writer(dir);
  write('pipeline.dot', CONFERENCE_PIPELINE);
  write(
    'manifest.json',
    json({
      format: 'orchestra.run/1',
      run_id: id,
      pipeline: 'SceneReview',
      goal: 'Check scene 2 against the canon',
      source_file: 'scene-review.dot',
      started_at: '2026-11-27T01:02:00.000Z',
      orchestra_version: '0.1.0',
      start_node: 'start',
      restarted_from: null,
      pipeline_sha256: sha256(CONFERENCE_PIPELINE),
      initial_context: {},
    }),
  );
  write('journal.jsonl', lines(JOURNAL.slice(0, 2)));
  write('checkpoint.json', checkpoint(2));
  write('events.jsonl', lines(eventsSplit(dir)[0]));
  write('start/status.json', json(status('start')));
  write('draft/prompt.md', 'Summarise scene 2\n');
  write('draft/response.md', `${DRAFT_RESPONSE}\n`);
  write('draft/status.json', json(status('Stage completed: draft', { last_stage: 'draft', last_response: DRAFT_RESPONSE })));
  write('review/prompt.md', `${QUESTION}\n`);
  write('review/receipts.jsonl', lines(RECEIPTS));
}

/** The rest: the conference's record, the journal, the checkpoint and the events to the end (appended, as the engine does). */
function finish(dir: string): void {
  const write = writer(dir);
  write('review/conference.json', json(CONFERENCE));
  write('review/conference.md', `# Conference: review\n\n${QUESTION}\n\n${ROLES.map((r) => `## ${r.role} (${r.tier}): ${r.status}\n\n${r.reply}\n`).join('\n')}`);
  write('review/status.json', json({ ...status('1 of 3 roles answered', CONFERENCE_CONTEXT), usage: usage(730, 162) }));
  write('exit/status.json', json(status('exit')));
  appendFileSync(join(dir, 'journal.jsonl'), lines(JOURNAL.slice(2)));
  write('checkpoint.json', checkpoint(4));
  appendFileSync(join(dir, 'events.jsonl'), lines(eventsSplit(dir)[1]));
}

/** Writes the finished run into `<runsDir>/<id>` and returns its directory. */
export function writeConferenceRun(runsDir: string, id = 'scene-review'): string {
  const dir = join(runsDir, id);
  writeUnderWay(dir, id);
  finish(dir);
  return dir;
}

/**
 * Writes the run into `<runsDir>/<id>` while its conference is under way,
 * with `run.lock` naming this process (so a server follows its events as
 * those of a run another process drives). `finish()` writes the rest and
 * lets the run go.
 */
export function writeConferenceRunUnderWay(runsDir: string, id = 'scene-review-live'): { dir: string; finish(): void } {
  const dir = join(runsDir, id);
  writeUnderWay(dir, id);
  const lock = { pid: process.pid, host: hostname(), start_time: processStartTime(process.pid) ?? null, acquired_at: '2026-11-27T01:02:00.000Z' };
  writeFileSync(join(dir, 'run.lock'), `${JSON.stringify(lock)}\n`);
  return {
    dir,
    finish() {
      finish(dir);
      rmSync(join(dir, 'run.lock'));
    },
  };
}
