import { resolve } from 'node:path';
import { readCheckpoint, readJournal, readManifest, readPendingQuestions } from '@orchestra/core';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { reportingUsageErrors } from '../usage-errors.js';

/** `orchestra status <logs-dir>`: where a run stands and what it waits for. */
export async function statusCommand(logsDir: string, io: CliIO): Promise<number> {
  const root = resolve(logsDir);
  return reportingUsageErrors(io, () => {
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
    if (checkpoint.failure_reason) io.stdout(`  reason: ${checkpoint.failure_reason}\n`);
    const pendingQuestions = status === 'parked' ? readPendingQuestions(root) : [];
    for (const pending of pendingQuestions) {
      io.stdout(`  waiting for an answer to ${pending.id}: ${pending.question.text}\n`);
      for (const o of pending.question.options) io.stdout(`    [${o.key}] ${o.label}\n`);
      io.stdout(`  answer with: orchestra answer ${logsDir}${pendingQuestions.length > 1 ? ` --question ${pending.id}` : ''} <answer>\n`);
    }
    return ExitCode.ok;
  });
}
