import { formatCost, type RunEvent, type RunResult, type TokenUsage } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import type { PhaseCost } from '@orchestra/core/store';
import type { CliIO } from '../io.js';
import { painter } from './colour.js';
import { formatDuration } from './format-duration.js';
import { terminalJson } from './terminal-json.js';

/** How the run is shown: a line per stage, only the summary, or JSON events. */
export type RenderMode = 'normal' | 'quiet' | 'json';

/** Options of {@link createRunRenderer}. */
export interface RunRendererOptions {
  mode: RenderMode;
  /** Show a live "running" line (only on a terminal). */
  live: boolean;
  /**
   * Where an interactive node's reply is shown as it streams (the console
   * interviewer that asks the questions), under the phase it belongs to on a
   * phased node; `endReply` ends the line of a stage's reply when the stage ends.
   */
  replies?: { streamReply(stage: string, turn: number, text: string, phase?: string): void; endReply?(stage: string): void };
  /** Colour the status marks, durations and failures (see `colourEnabled`); off by default. */
  colour?: boolean;
}

/** Text from the pipeline, a model or a tool (node ids, names, paths) as one visible line: shown, never obeyed. */
function shown(text: string): string {
  return escapeControl(text, { keepNewlines: false });
}

/** `1,234` */
function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** A phased stage's calls per phase: `discuss 1 call, 40 tokens · summarize 1 call, 40 tokens · serialize 2 calls, 80 tokens`. */
function phaseLine(phases: Readonly<Record<string, PhaseCost>>): string {
  return Object.entries(phases)
    .map(([name, p]) => `${shown(name)} ${p.calls} call${p.calls === 1 ? '' : 's'}${p.usage ? `, ${count(p.usage.totalTokens)} tokens` : ''}`)
    .join(' · ');
}

/** `1,234 tokens` for a stage line. */
function tokens(usage: TokenUsage | undefined): string {
  return usage ? `  ${count(usage.totalTokens)} tokens${usage.cost ? ` ${formatCost(usage.cost)}` : ''}` : '';
}

const SPIN = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Turns run events into terminal output: one line per finished stage with its
 * status and duration, a live indicator while a stage runs (terminals only),
 * retries and failures as they happen. `quiet` prints nothing per stage;
 * `json` prints every event as one JSON line on stdout.
 */
export function createRunRenderer(io: CliIO, options: RunRendererOptions) {
  let live: { timer: NodeJS.Timeout; nodeId: string; shownId: string; since: number; frame: number; pieces: number } | undefined;
  /** Tokens of each stage this process ran, for the summary. */
  const stageTokens = new Map<string, number>();
  const decisions: string[] = [];
  const width = 24;
  const paint = painter(options.colour === true);
  /** The parallel nodes whose branches are running, with their branch counts: their stage lines are indented under them. */
  const fanOuts = new Map<string, number>();
  /** The branches of each running parallel node that started and have not finished. */
  const openBranches = new Map<string, Set<string>>();
  const indent = () => '    '.repeat(fanOuts.size);
  const duration = (ms: number) => paint('dim', formatDuration(ms).padStart(7));

  const clearLive = () => {
    if (!live) return;
    clearInterval(live.timer);
    io.stderr('\r\x1b[2K');
    live = undefined;
  };
  const drawLive = () => {
    if (!live) return;
    live.frame = (live.frame + 1) % SPIN.length;
    // Streamed pieces stand for tokens: providers send about one token a piece.
    const streaming = live.pieces > 0 ? `  ~${count(live.pieces)} tokens` : '';
    // Laid out as the finished line will be, so it does not jump when the stage ends.
    io.stderr(`\r\x1b[2K  ${paint('cyan', SPIN[live.frame] as string)} ${live.shownId.padEnd(width)} ${duration(performance.now() - live.since)}${streaming}`);
  };

  const startLive = (nodeId: string, since: number) => {
    clearLive();
    live = { timer: setInterval(drawLive, 100), nodeId, shownId: shown(nodeId), since, frame: 0, pieces: 0 };
    live.timer.unref();
    drawLive();
  };
  /** When each running stage started: the indicator comes back after a question, with the stage's time. */
  const running = new Map<string, number>();

  const onEvent = (event: RunEvent): void => {
    if (event.type === 'llm.delta') {
      // Never printed as JSON or logged: a piece of a reply. A conversation's reply is shown as it arrives.
      if (event.turn !== undefined && options.replies) {
        clearLive();
        options.replies.streamReply(event.nodeId, event.turn, event.text, event.phase);
      } else if (live?.nodeId === event.nodeId) {
        live.pieces += 1;
      }
      return;
    }
    if (event.type === 'stage.completed' || event.type === 'stage.failed') {
      // A reply that streamed last (a phased node's brief) gets its line ended before the stage's line.
      options.replies?.endReply?.(event.nodeId);
      if (event.usage) stageTokens.set(event.nodeId, (stageTokens.get(event.nodeId) ?? 0) + event.usage.totalTokens);
    }
    if (event.type === 'human.interaction') {
      const answer =
        event.answerValue === 'SKIPPED' ? 'no answer' : event.answerValue === 'TIMEOUT' ? 'no answer in time' : event.selectedKey ? `[${event.selectedKey}] ${event.selectedLabel}` : JSON.stringify(event.answerText || event.answerValue);
      // A conversation's reply is listed by turn: the question is the agent's whole message.
      decisions.push(escapeControl(event.turn === undefined ? `${event.nodeId}: ${event.questionText} → ${answer}` : `${event.nodeId}, turn ${event.turn}: ${answer}`, { keepNewlines: false }));
    }
    if (event.type === 'interview.started') clearLive(); // the question needs the terminal
    if (options.mode === 'json') {
      io.stdout(`${terminalJson(event)}\n`);
      return;
    }
    if (options.mode === 'quiet') return;
    switch (event.type) {
      case 'pipeline.started':
        io.stdout(`${event.resumed ? 'Resuming' : 'Running'} ${paint('bold', shown(event.pipeline || 'pipeline'))} (${shown(event.logsRoot)})\n`);
        break;
      case 'stage.started':
        running.set(event.nodeId, performance.now());
        if (options.live) startLive(event.nodeId, performance.now());
        break;
      case 'human.interaction': {
        // The stage goes on after the answer (an agent replying to it, say): show that it is still running.
        const since = running.get(event.nodeId);
        if (options.live && since !== undefined) startLive(event.nodeId, since);
        break;
      }
      case 'stage.completed': {
        running.delete(event.nodeId);
        clearLive();
        const mark = event.status === 'success' ? paint('green', '✓') : event.status === 'skipped' ? paint('dim', '-') : paint('yellow', '~');
        const note = event.status === 'success' ? '' : `  ${paint('yellow', event.status)}`;
        io.stdout(`${indent()}  ${mark} ${shown(event.nodeId).padEnd(width)} ${duration(event.durationMs)}${note}${tokens(event.usage)}\n`);
        if (event.phases) io.stdout(`${indent()}    ${paint('dim', phaseLine(event.phases))}\n`);
        break;
      }
      case 'stage.failed':
        running.delete(event.nodeId);
        clearLive();
        io.stdout(`${indent()}  ${paint('red', '✗')} ${shown(event.nodeId).padEnd(width)} ${duration(event.durationMs)}  ${paint(event.willRetry ? 'yellow' : 'red', event.willRetry ? 'failed, will retry' : 'failed')}: ${firstLine(event.failureReason)}${tokens(event.usage)}\n`);
        break;
      case 'parallel.started':
        io.stdout(`${indent()}  ${paint('cyan', '⑂')} ${shown(event.nodeId)}: ${event.branchCount} branch${event.branchCount === 1 ? '' : 'es'} (${shown(event.joinPolicy)}, ${event.maxParallel} at a time)\n`);
        fanOuts.set(event.nodeId, event.branchCount);
        openBranches.set(event.nodeId, new Set());
        break;
      case 'parallel.branch_started':
        openBranches.get(event.nodeId)?.add(event.branch);
        break;
      case 'parallel.branch_completed':
        openBranches.get(event.nodeId)?.delete(event.branch);
        break;
      case 'parallel.completed': {
        const total = fanOuts.get(event.nodeId) ?? event.successCount + event.failureCount;
        fanOuts.delete(event.nodeId);
        const stopped = [...(openBranches.get(event.nodeId) ?? [])];
        openBranches.delete(event.nodeId);
        // Branches neither succeeded nor failed were cancelled (another won, under first_success) or skipped.
        const cancelled = total - event.successCount - event.failureCount;
        const parts = [`${event.successCount} of ${total} branch${total === 1 ? '' : 'es'} succeeded`];
        if (event.failureCount > 0) parts.push(paint('red', `${event.failureCount} failed`));
        if (cancelled > 0) parts.push(paint('yellow', `${cancelled} cancelled${stopped.length > 0 ? ` (${stopped.map(shown).join(', ')}${stopped.length < cancelled ? ', and those not started' : ''})` : ''}`));
        io.stdout(`${indent()}    ${parts.join(', ')}\n`);
        break;
      }
      case 'conference.role.completed': {
        // One line per role as it ends, above the stage's own line; the live line comes back after it.
        clearLive();
        const mark = event.status === 'answered' ? paint('green', '◦') : event.status === 'abstained' ? paint('dim', '◦') : paint('yellow', '◦');
        io.stdout(`${indent()}    ${mark} ${shown(event.role)} ${event.status === 'answered' ? event.status : paint(event.status === 'abstained' ? 'dim' : 'yellow', event.status)}${tokens(event.usage)}\n`);
        const since = running.get(event.nodeId);
        if (options.live && since !== undefined) startLive(event.nodeId, since);
        break;
      }
      case 'stage.retrying':
        io.stdout(`${indent()}    retrying ${shown(event.nodeId)} (attempt ${event.attempt}) in ${formatDuration(event.delayMs)}\n`);
        break;
      case 'goal_gate.unsatisfied':
        io.stdout(`  ! goal gate ${shown(event.nodeId)} is not satisfied${event.retryTarget ? `; going back to ${shown(event.retryTarget)}` : ''}\n`);
        break;
      case 'pipeline.restarted':
        io.stdout(`  ↻ loop restart at ${shown(event.to)} in ${shown(event.logsRoot)}\n`);
        break;
      case 'run.orphans_unverified':
        for (const p of event.processes) {
          // Everything but the number comes from processes.json, a file: shown escaped.
          const command = p.command.length > 80 ? `${p.command.slice(0, 79)}…` : p.command;
          const text = escapeControl(`left running: process group ${p.pgid} (${p.node}: ${command}) was recorded by the run, but ${p.reason}; not signalled (stop it with kill -- -${p.pgid} if it is yours)`, { keepNewlines: false });
          io.stdout(`  ${paint('yellow', '!')} ${text}\n`);
        }
        break;
      default:
        break;
    }
  };

  /** Prints the final summary (always, also in quiet mode; not in JSON mode). */
  const summary = (result: RunResult): void => {
    clearLive();
    if (options.mode === 'json') return;
    const head =
      result.status === 'success'
        ? paint('green', '✔ success')
        : result.status === 'interrupted'
          ? paint('yellow', '■ interrupted')
          : result.status === 'parked'
            ? paint('cyan', '… parked, waiting for a human')
            : paint('red', '✘ failed');
    io.stdout(
      `${head}: ${result.completedNodes.length} node${result.completedNodes.length === 1 ? '' : 's'} run, ${result.retries} retr${result.retries === 1 ? 'y' : 'ies'}, ${formatDuration(result.durationMs)}\n`,
    );
    if (result.failureReason) io.stdout(`  reason: ${paint('red', escapeControl(result.failureReason))}\n`);
    if (result.usage) {
      const u = result.usage;
      io.stdout(`  tokens: ${count(u.totalTokens)} (${count(u.inputTokens)} in, ${count(u.outputTokens)} out)${u.cost ? `, cost ${formatCost(u.cost)}` : ''}\n`);
      if (stageTokens.size > 0) {
        const here = [...stageTokens.values()].reduce((a, b) => a + b, 0);
        const before = u.totalTokens - here;
        const list = [...stageTokens].map(([id, n]) => `${shown(id)} ${count(n)}`).join(', ');
        io.stdout(`  by stage: ${list}${before > 0 ? `; ${count(before)} before this process resumed the run` : ''}\n`);
      }
    }
    for (const d of decisions) io.stdout(`  human: ${d}\n`);
    io.stdout(`  run directory: ${shown(result.logsRoot)}\n`);
  };

  return { onEvent, summary, stop: clearLive };
}

/** The first non-empty line, shortened and with control characters shown, not obeyed (tool output, provider messages). */
function firstLine(text: string): string {
  const line = escapeControl(text.split('\n').find((l) => l.trim()) ?? text);
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
