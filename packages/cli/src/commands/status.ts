import { join, resolve } from 'node:path';
import {
  addUsage,
  escapeControl,
  usageFromFile,
  CONVERSATION_COMMANDS,
  CONVERSATION_FILE,
  ConversationProgressSchema,
  isConversationQuestion,
  FileRunStore,
  readCheckpoint,
  readJournal,
  readManifest,
  readPendingQuestions,
  type Checkpoint,
} from '@orchestra/core';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { reportingUsageErrors } from '../usage-errors.js';

/** `orchestra status <logs-dir>`: where a run stands and what it waits for. */
export async function statusCommand(logsDir: string, io: CliIO): Promise<number> {
  const root = resolve(logsDir);
  return reportingUsageErrors(io, async () => {
    const manifest = readManifest(root);
    const checkpoint = readCheckpoint(root);
    const journal = readJournal(root).entries.filter((e) => e.seq > checkpoint.journal_seq);
    const completed = [...checkpoint.completed_nodes, ...journal.map((e) => e.node)];
    const last = journal.at(-1);
    const next = last ? last.next : checkpoint.next_node;
    const status = last?.end ?? checkpoint.status;
    io.stdout(`${manifest.pipeline || 'pipeline'}: ${status}\n`);
    io.stdout(`  run directory: ${logsDir}\n  started: ${manifest.started_at}\n  nodes completed: ${completed.length}${completed.length ? ` (last: ${completed.at(-1)})` : ''}\n`);
    if (next) io.stdout(`  next node: ${next}\n`);
    if (checkpoint.failure_reason) io.stdout(`  reason: ${escapeControl(checkpoint.failure_reason)}\n`);
    // The checkpoint's total plus the journal lines after it: the tokens of every completed node.
    let usage = checkpoint.token_usage ? usageFromFile(checkpoint.token_usage) : undefined;
    for (const entry of journal) if (entry.usage) usage = addUsage(usage, usageFromFile(entry.usage));
    if (usage) io.stdout(`  tokens: ${usage.totalTokens.toLocaleString('en-US')} (${usage.inputTokens.toLocaleString('en-US')} in, ${usage.outputTokens.toLocaleString('en-US')} out)\n`);
    for (const line of conversationLines(checkpoint, new Set(journal.map((e) => e.node)), logsDir)) io.stdout(`  ${line}\n`);
    const pendingQuestions = status === 'parked' ? await readPendingQuestions(new FileRunStore(root)) : [];
    for (const pending of pendingQuestions) {
      const { question } = pending;
      if (isConversationQuestion(question)) {
        io.stdout(`  waiting for a reply to ${pending.id}, turn ${String(question.metadata.turn)} of its conversation; the agent said:\n`);
        io.stdout(`${indent(escapeControl(question.text), '    ')}\n  reply with text for the agent, or ${CONVERSATION_COMMANDS.join(', ')}\n`);
      } else {
        io.stdout(`  waiting for an answer to ${pending.id}: ${escapeControl(question.text)}\n`);
      }
      for (const o of question.options) io.stdout(`    [${escapeControl(o.key)}] ${escapeControl(o.label)}\n`);
      io.stdout(`  answer with: orchestra answer ${logsDir}${pendingQuestions.length > 1 ? ` --question ${pending.id}` : ''} <answer>\n`);
    }
    return ExitCode.ok;
  });
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/** One line per conversation the checkpoint holds for a node that has not completed since. */
function conversationLines(checkpoint: Checkpoint, completedSince: ReadonlySet<string>, logsDir: string): string[] {
  const lines: string[] = [];
  for (const [nodeId, progress] of Object.entries(checkpoint.node_progress)) {
    const parsed = ConversationProgressSchema.safeParse(progress);
    if (!parsed.success || completedSince.has(nodeId)) continue;
    const turns = parsed.data.turns.length;
    lines.push(`conversation in ${nodeId}: ${turns} human turn(s) so far; transcript: ${join(logsDir, nodeId, CONVERSATION_FILE)}`);
  }
  return lines;
}
