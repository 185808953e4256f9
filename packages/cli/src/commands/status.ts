import { join } from 'node:path';
import { formatCost, type Answer, type JsonValue } from '@orchestra/core';
import { CONVERSATION_COMMANDS, isConversationQuestion } from '@orchestra/core/human';
import { CONVERSATION_FILE } from '@orchestra/core/handlers';
import { ConversationProgressSchema } from '@orchestra/core/store';
import { escapeControl } from '@orchestra/core/loader';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { answerCommands } from '../render/parked-message.js';
import { shellCommand } from '../shell-quote.js';
import { terminalJson } from '../render/terminal-json.js';
import { reportingUsageErrors } from '../usage-errors.js';
import type { RunReport, RunState } from '@orchestra/core';
import { cliRunTarget } from '../cli-runs.js';

/**
 * Exit codes of `orchestra status` by the run's state (documented in
 * docs/running.md): 0 completed (or continued elsewhere by a restart),
 * 1 failed, 3 parked, 4 running, 5 stopped without finishing; 2 when the
 * directory is not a readable run.
 */
export const STATUS_EXIT_CODES: Record<RunState, number> = {
  completed: ExitCode.ok,
  restarted: ExitCode.ok,
  failed: ExitCode.failed,
  parked: ExitCode.parked,
  running: 4,
  stopped: 5,
};

/** `orchestra status <logs-dir | run id --store URL> [--json]`: where a run stands, who drives it, what it waits for. */
export async function statusCommand(logsDir: string, options: { json?: boolean; store?: string }, io: CliIO): Promise<number> {
  return reportingUsageErrors(io, async () => {
    const target = await cliRunTarget(logsDir, options);
    try {
      const report = await target.supervisor().report(target.id);
      if (options.json) io.stdout(`${terminalJson(statusJson(report, logsDir, target.store, target.hint.slice(1)))}\n`);
      else printStatus(report, logsDir, io, target.store, target.hint.slice(1));
      return STATUS_EXIT_CODES[report.state];
    } finally {
      await target.close();
    }
  });
}

function answerText(answer: Answer): string {
  return answer.selectedOption ? `[${answer.selectedOption.key}] ${answer.selectedOption.label}` : (answer.text ?? answer.value);
}

/** The command that continues the run, when it can be continued. */
function resumeCommand(report: RunReport, logsDir: string, storeArgs: readonly string[] = []): string | null {
  return report.state === 'stopped' || report.state === 'parked' ? shellCommand(['orchestra', 'resume', logsDir, ...storeArgs]) : null;
}

/** The status as one JSON object (`--json`). */
export function statusJson(report: RunReport, logsDir: string, store?: string, storeArgs: readonly string[] = []): Record<string, JsonValue> {
  const { manifest, restored, owner } = report;
  const { state } = restored;
  return {
    run_dir: store === undefined ? logsDir : report.dir,
    ...(store !== undefined ? { store } : {}),
    run_id: manifest.run_id,
    pipeline: manifest.pipeline,
    state: report.state,
    checkpoint_status: state.status,
    started_at: manifest.started_at,
    workdir: manifest.workdir ?? null,
    owner: owner ? { pid: owner.pid, host: owner.host, alive: owner.alive, since: owner.acquired_at, ...(owner.expires_at !== undefined ? { lease_expires_at: owner.expires_at } : {}) } : null,
    completed_nodes: state.completedNodes.length,
    last_node: state.currentNode,
    next_node: state.nextNode,
    failure_reason: state.failureReason,
    restarted_to: state.restartedTo,
    usage: state.usage
      ? { input_tokens: state.usage.inputTokens, output_tokens: state.usage.outputTokens, total_tokens: state.usage.totalTokens, cost: state.usage.cost ? { ...state.usage.cost } : null }
      : null,
    pending: report.pending.map((p) => ({
      id: p.id,
      text: p.question.text,
      type: p.question.type,
      options: p.question.options.map((o) => ({ key: o.key, label: o.label })),
      answer: report.answers[p.id] ? answerText(report.answers[p.id] as Answer) : null,
    })),
    resume_command: resumeCommand(report, logsDir, storeArgs),
  };
}

/** A name or path from the run's files (the pipeline's name, node ids, paths) as one visible line. */
function shown(text: string): string {
  return escapeControl(text, { keepNewlines: false });
}

function printStatus(report: RunReport, logsDir: string, io: CliIO, store?: string, storeArgs: readonly string[] = []): void {
  const { manifest, restored, owner } = report;
  const { state } = restored;
  const out = (line: string) => io.stdout(`${line}\n`);
  const headline: Record<RunState, string> = {
    completed: 'completed',
    failed: 'failed',
    parked: 'parked, waiting for an answer',
    running: `running (process ${owner?.pid} on ${shown(String(owner?.host))})`,
    stopped: state.status === 'interrupted' ? 'interrupted' : 'stopped without finishing (the process that ran it is gone)',
    restarted: `restarted: continues in ${shown(String(state.restartedTo))}`,
  };
  // A run recorded in a database and queued, not yet taken by a worker.
  const queued = store !== undefined && !report.checkpoint && state.completedNodes.length === 0 && report.state === 'stopped';
  out(`${shown(manifest.pipeline || 'pipeline')}: ${queued ? 'queued, waiting for a worker (orchestra worker)' : headline[report.state]}`);
  out(store === undefined ? `  run directory: ${shown(logsDir)}` : `  run: ${shown(logsDir)} in ${shown(store)}`);
  out(`  started: ${shown(manifest.started_at)}`);
  if (manifest.workdir) out(`  working directory: ${shown(manifest.workdir)}`);
  const completed = state.completedNodes;
  out(`  nodes completed: ${completed.length}${completed.length ? ` (last: ${shown(completed.at(-1) as string)})` : ''}`);
  if (state.nextNode && report.state !== 'completed') out(`  next node: ${shown(state.nextNode)}`);
  if (state.failureReason) out(`  reason: ${escapeControl(state.failureReason)}`);
  if (state.usage) out(`  tokens: ${state.usage.totalTokens.toLocaleString('en-US')} (${state.usage.inputTokens.toLocaleString('en-US')} in, ${state.usage.outputTokens.toLocaleString('en-US')} out)${state.usage.cost ? `, cost ${formatCost(state.usage.cost)}` : ''}`);
  for (const line of conversationLines(report, logsDir)) out(`  ${line}`);
  printPending(report, logsDir, io, storeArgs, store);
  const resume = resumeCommand(report, logsDir, storeArgs);
  if (report.state === 'stopped' && resume) out(`  resume with: ${resume}`);
}

function printPending(report: RunReport, logsDir: string, io: CliIO, storeArgs: readonly string[], store?: string): void {
  const out = (line: string) => io.stdout(`${line}\n`);
  const several = report.pending.length > 1;
  for (const pending of report.pending) {
    const { question } = pending;
    if (isConversationQuestion(question)) {
      out(`  waiting for a reply to ${shown(pending.id)}, turn ${shown(String(question.metadata.turn))} of its conversation; the agent said:`);
      out(`${indent(escapeControl(question.text), '    ')}\n  reply with text for the agent, or ${CONVERSATION_COMMANDS.join(', ')}`);
    } else {
      out(`  waiting for an answer to ${shown(pending.id)}: ${escapeControl(question.text)}`);
    }
    for (const o of question.options) out(`    [${shown(o.key)}] ${shown(o.label)}`);
    const given = report.answers[pending.id];
    if (given) out(`  answered: ${escapeControl(answerText(given))}; to change it:`);
    else out('  answer with:');
    for (const command of answerCommands(logsDir, pending, several, [...storeArgs, ...(given ? ['--replace'] : [])])) out(`    ${command}`);
  }
  if (report.pending.length > 0) out(storeArgs.length > 0 || store !== undefined ? '  a worker continues it once every question has an answer' : `  then continue: ${shellCommand(['orchestra', 'resume', logsDir])}`);
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** One line per conversation saved for a node that has not completed. */
function conversationLines(report: RunReport, logsDir: string): string[] {
  const lines: string[] = [];
  for (const [nodeId, progress] of Object.entries(report.restored.state.nodeProgress)) {
    const parsed = ConversationProgressSchema.safeParse(progress);
    if (!parsed.success) continue;
    lines.push(`conversation in ${shown(nodeId)}: ${parsed.data.turns.length} human turn(s) so far; transcript: ${shown(join(logsDir, nodeId, CONVERSATION_FILE))}`);
  }
  return lines;
}
