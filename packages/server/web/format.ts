import type { DiagnosticJson, StreamEvent } from './types.js';

/** A diagnostic as the CLI prints it: `file:line:col: severity [rule] message`. */
export function diagnosticLine(d: DiagnosticJson): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity} [${d.rule}] ${d.message}`;
}

/** A date and time in the reader's locale (the ISO text when it does not parse). */
export function dateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** `HH:MM:SS` of an event's `at`. */
export function clock(iso: unknown): string {
  if (typeof iso !== 'string') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString([], { hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function duration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

function short(value: unknown, max = 160): string {
  const line = text(value).replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** An event's `usage` when it has the shape core gives it (`{ inputTokens, outputTokens, totalTokens, cost? }`). */
function usageOf(value: unknown): { totalTokens: number; cost?: { amount: number; currency: string } } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { totalTokens, cost } = value as { totalTokens?: unknown; cost?: unknown };
  if (typeof totalTokens !== 'number') return undefined;
  const { amount, currency } = (typeof cost === 'object' && cost !== null ? cost : {}) as { amount?: unknown; currency?: unknown };
  return typeof amount === 'number' && typeof currency === 'string' ? { totalTokens, cost: { amount, currency } } : { totalTokens };
}

/** A number of tokens as the CLI prints it: `1,234`. */
export function tokenCount(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * What a stage (or the run) used, after its line: `, 1,234 tokens, $0.0123`;
 * without the cost when it is not known (a model without a price), nothing
 * when no LLM call reported tokens.
 */
function usageText(value: unknown): string {
  const usage = usageOf(value);
  if (!usage) return '';
  return `, ${tokenCount(usage.totalTokens)} tokens${usage.cost ? `, ${moneyText(usage.cost)}` : ''}`;
}

/** One line saying what an event means (the log's second column). */
export function eventSummary(event: StreamEvent): string {
  const d = event.data;
  switch (event.type) {
    case 'pipeline.started':
      return `${text(d.pipeline)} from ${text(d.startNode)}${d.resumed ? ' (resumed)' : ''}`;
    case 'pipeline.completed':
      return `completed: ${text(d.nodesRun)} nodes in ${duration(d.durationMs)}${usageText(d.usage)}`;
    case 'pipeline.failed':
      return `failed: ${short(d.failureReason)}${usageText(d.usage)}`;
    case 'pipeline.parked':
      return `parked at ${text(d.nodeId)}: ${short(d.questionText)}`;
    case 'pipeline.interrupted':
      return `stopped: ${short(d.reason)}`;
    case 'pipeline.restarted':
      return `restarted: ${text(d.from)} → ${text(d.to)}`;
    case 'stage.started':
      return `${text(d.nodeId)} (${text(d.handlerType)})${typeof d.attempt === 'number' && d.attempt > 1 ? `, attempt ${d.attempt}` : ''}`;
    case 'stage.completed':
      return `${text(d.nodeId)}: ${text(d.status)} in ${duration(d.durationMs)}${usageText(d.usage)}`;
    case 'stage.failed':
      return `${text(d.nodeId)}: ${short(d.failureReason)}${d.willRetry ? ' (will retry)' : ''}${usageText(d.usage)}`;
    case 'stage.retrying':
      return `${text(d.nodeId)}: attempt ${text(d.attempt)} in ${duration(d.delayMs)}`;
    case 'edge.selected':
      return `${text(d.from)} → ${text(d.to)}${d.label ? ` (${text(d.label)})` : ''}`;
    case 'checkpoint.saved':
      return `${text(d.nodeId)}: ${text(d.completedNodes)} completed`;
    case 'interview.started':
      return `${text(d.nodeId)} asks: ${short(d.questionText)}`;
    case 'interview.completed':
      return `${text(d.nodeId)}: answered ${short(d.answerValue)}`;
    case 'interview.timeout':
      return `${text(d.nodeId)}: no answer in ${duration(d.durationMs)}`;
    case 'human.interaction':
      return `${text(d.nodeId)}: ${short(d.selectedLabel || d.answerText || d.answerValue)}`;
    case 'conversation.reply':
      return `${text(d.nodeId)}: agent message ${text(d.turn)}${d.replayed ? ' (replayed)' : ''}`;
    case 'conversation.ended':
      return `${text(d.nodeId)}: ${text(d.command)} after ${text(d.turns)} turns`;
    case 'conversation.resumed':
      return `${text(d.nodeId)}: ${text(d.turns)} turns ${text(d.mode)}`;
    case 'llm.response':
      return `${text(d.nodeId)}: ${text(d.model)} in ${duration(d.durationMs)}`;
    case 'agent.tool_call':
      return `${text(d.nodeId)}: ${text(d.tool)} ${text(d.status)}${d.detail ? ` ${short(d.detail, 80)}` : ''}`;
    case 'conference.role.started':
      return `${text(d.nodeId)}: ${text(d.role)} (${text(d.tier)}) takes part`;
    case 'conference.role.rejected':
      return `${text(d.nodeId)}: ${text(d.role)}'s answer sent back: ${short(d.reason, 100)}${d.final ? ' (final: ungrounded)' : ''}`;
    case 'conference.role.completed':
      return `${text(d.nodeId)}: ${text(d.role)} ${text(d.status)} in ${duration(d.durationMs)}`;
    case 'goal_gate.unsatisfied':
      return `${text(d.nodeId)} unsatisfied${d.retryTarget ? `, retry at ${text(d.retryTarget)}` : ''}`;
    default: {
      const { type: _type, at: _at, ...rest } = d;
      return short(typeof rest.nodeId === 'string' ? rest.nodeId : JSON.stringify(rest));
    }
  }
}

/**
 * An amount of money as the CLI prints it: `$0.0123` for US dollars, else
 * `0.0123 EUR`. A copy of core's `formatCost`: the page cannot import it
 * (its module brings zod into the bundle), so
 * packages/server/test/web-money-text.test.ts holds the two equal.
 */
export function moneyText(cost: { amount: number; currency: string }): string {
  const amount = cost.amount.toFixed(cost.amount < 1 ? 4 : 2);
  return cost.currency === 'USD' ? `$${amount}` : `${amount} ${cost.currency}`;
}
