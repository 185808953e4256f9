import { basename } from 'node:path';
import type { Question } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import type { InteractiveSession, RunResult } from '@orchestra/chat';
import type { Paint } from '../render/colour.js';
import { formatDuration } from '../render/format-duration.js';
import type { CliIO } from '../io.js';
import type { TerminalInterviewer } from './terminal-interviewer.js';
import { replayLines } from './conversation-replay.js';

/** How the terminal shows the session. */
export interface ChatTerminalOptions {
  io: CliIO;
  paint: Paint;
  /** The person types at a terminal (their lines are not echoed; a status line is shown). */
  tty: boolean;
  project: string;
}

/** One line about a run: its card while it runs, and when it ended. */
export function runCard(result: RunResult): string {
  const mark = result.status === 'completed' ? '✓' : result.status === 'failed' ? '✗' : result.status === 'cancelled' ? '■' : '▶';
  const tokens = result.tokens ? ` · ${result.tokens.total_tokens.toLocaleString('en-US')} tokens` : '';
  const reason = result.failure_reason ? ` · ${escapeControl(result.failure_reason)}` : '';
  const nodes = result.completed_nodes.length;
  return `${mark} run ${result.id}: ${escapeControl(result.task)} · ${result.pipeline} · ${result.status} · ${formatDuration(result.duration_ms)} · ${nodes} node${nodes === 1 ? '' : 's'}${tokens}${reason}`;
}

/**
 * The chat in a terminal: agent and person set apart, a card per run, the
 * questions of approvals and launched runs, and commands (`/runs`, `/run
 * <id>`, `/cancel`, `/quit`). Lines are taken in order: one answers the
 * question asked, else becomes a message, and waits while the agent is
 * thinking. During a run, a line typed at a terminal is queued for the
 * agent; a piped line waits for the run's next question (or its end), so
 * piped input scripts a session; a piped line also waits for the output of
 * the commands before it (`/runs`, `/run`), so the output keeps the input's
 * order.
 */
export class ChatTerminal {
  private readonly lines: string[] = [];
  private ended = false;
  /** True while the agent handles a message (set before the session is called: its events re-enter {@link pump}). */
  private inTurn = false;
  private pumping = false;
  private pumpAgain = false;
  private quitting = false;
  private finished: () => void = () => {};
  readonly done: Promise<void>;

  constructor(
    private readonly session: InteractiveSession,
    private readonly interviewer: TerminalInterviewer | undefined,
    private readonly options: ChatTerminalOptions,
  ) {
    this.done = new Promise((resolve) => (this.finished = resolve));
    const { paint } = options;
    session.on('agent', (text) => this.out(`${paint('cyan', 'orchestra ›')} ${escapeControl(text)}`));
    session.on('failure', (text) => this.out(paint('red', `orchestra: the agent could not answer: ${escapeControl(text)} (the conversation is kept; send the message again)`)));
    session.on('queued', (text) => this.out(paint('dim', `  (queued for the agent: ${escapeControl(text)})`)));
    session.on('run', (e) => {
      if (e.phase === 'started' && e.id && e.prepared) this.out(paint('yellow', `▶ run ${e.id}: ${escapeControl(e.prepared.input.task)} · ${e.prepared.pipeline} · running (/cancel stops it)`));
      if (e.phase === 'ended' && e.result) this.out(paint(e.result.status === 'completed' ? 'green' : 'red', runCard(e.result)));
    });
    session.on('transition', (t) => {
      if (options.tty) this.options.io.stderr(paint('dim', `[${basename(options.project)} · ${t.to}]\n`));
      this.pump();
    });
  }

  /** Shows the end of the conversation so far (a resumed session), as it was shown when it happened. */
  showConversation(): void {
    for (const line of replayLines(this.session.history(), { paint: this.options.paint })) this.out(line);
  }

  /** Shows a question (the interviewer's). */
  showQuestion(question: Question): void {
    const { paint } = this.options;
    this.out(`${paint('magenta', '?')} ${escapeControl(question.text)}`);
    if (question.options.length) this.out(`  ${question.options.map((o) => `[${o.key}] ${o.label}`).join('  ')}`);
  }

  /** Work the agent does outside a message of the person's (a resumed session's recovery): lines wait for it as for a turn. */
  track(work: Promise<void>): Promise<void> {
    this.inTurn = true;
    return work.finally(() => {
      this.inTurn = false;
      this.pump();
    });
  }

  /** A line of input. */
  line(text: string): void {
    this.lines.push(text);
    this.pump();
  }

  /** The input ended: unanswered questions get no answer, and the session ends once the agent is done. */
  end(): void {
    this.ended = true;
    this.pump();
  }

  /** Ctrl-C: cancels the active run; otherwise ends the chat. */
  interrupt(): void {
    if (this.session.state === 'RUNNING') {
      this.out(this.options.paint('dim', '  cancelling the run (the session goes on)...'));
      void this.session.cancelRun();
      return;
    }
    this.quit();
  }

  /** Decides what the next line is for; called whenever something changed (a call made while it runs is taken after it). */
  pump(): void {
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        this.pumpOnce();
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private pumpOnce(): void {
    for (;;) {
      if (this.quitting) return;
      const pending = this.interviewer?.pending;
      const next = this.lines[0];
      if (next === undefined) {
        if (!this.ended) return;
        if (pending) {
          pending.skip();
          continue;
        }
        if (!this.inTurn) this.quit();
        return;
      }
      // A script's lines wait for the output of the commands before them (/runs reads the runs): output stays in order.
      if (!this.options.tty && this.commandsPending > 0) return;
      const trimmed = next.trim();
      // The chat's own commands come first, even while a question waits (/done and the like are answers).
      if (/^\/(cancel|quit|exit|runs|run|help)\b/.test(trimmed)) {
        const urgent = /^\/(cancel|quit|exit)\b/.test(trimmed);
        // A script's command waits its turn: /runs after the agent is done, /cancel until the run has started.
        if (!this.options.tty && this.inTurn && !pending && (!urgent || (trimmed.startsWith('/cancel') && this.session.state !== 'RUNNING'))) return;
        this.lines.shift();
        this.command(trimmed);
        continue;
      }
      if (pending) {
        this.lines.shift();
        this.echo(next);
        const problem = pending.take(next);
        if (problem) this.out(this.options.paint('red', `  ${problem}`));
        continue;
      }
      if (trimmed === '') {
        this.lines.shift();
        continue;
      }
      if (!this.inTurn) {
        this.lines.shift();
        this.echo(next);
        this.inTurn = true;
        void this.session.send(next).finally(() => {
          this.inTurn = false;
          this.pump();
        });
        continue;
      }
      // At a terminal, what the person types during a run is a message for the agent (queued). Piped
      // input is a script: a line waits for the run's next question, or for the run to end.
      if (this.session.state === 'RUNNING' && this.options.tty) {
        this.lines.shift();
        this.echo(next);
        void this.session.send(next);
        continue;
      }
      // The agent is thinking or waiting for an approval: the line waits.
      return;
    }
  }

  /** Output of commands, in the order they were given. */
  private commands: Promise<void> = Promise.resolve();
  /** Commands whose output is not all out yet. */
  private commandsPending = 0;

  /** Queues a command's output after the earlier ones'; the lines after it wait for it (piped input). */
  private queueCommand(work: () => Promise<void>): void {
    this.commandsPending += 1;
    this.commands = this.commands
      .then(work)
      .catch((error: unknown) => this.out(this.options.paint('red', `  ${escapeControl(error instanceof Error ? error.message : String(error))}`)))
      .finally(() => {
        this.commandsPending -= 1;
        this.pump();
      });
  }

  /** A command of the chat; false when it is not one (`/done` and the like are messages). */
  private command(text: string): boolean {
    const [name, arg] = text.split(/\s+/, 2);
    if (name === '/quit' || name === '/exit') {
      this.quit();
      return true;
    }
    if (name === '/cancel') {
      if (this.session.state === 'RUNNING') void this.session.cancelRun();
      else this.out('  no run is active');
      return true;
    }
    if (name === '/runs') {
      this.queueCommand(() => this.listRuns());
      return true;
    }
    if (name === '/run') {
      this.queueCommand(() => this.showRun(arg));
      return true;
    }
    if (name === '/help') {
      this.out('  /runs lists the runs, /run <id> shows one, /cancel stops the active run, /quit ends the session');
      return true;
    }
    return false;
  }

  private async listRuns(): Promise<void> {
    const ids = this.session.runIds();
    if (ids.length === 0) this.out('  no runs yet');
    for (const id of ids) this.out(`  ${runCard(await this.session.options.launcher.result(id))}`);
    const tokens = await this.session.tokens();
    this.out(`  session agent: ${tokens.session.total_tokens.toLocaleString('en-US')} tokens; runs: ${Object.values(tokens.runs).reduce((a, b) => a + b, 0).toLocaleString('en-US')} tokens`);
  }

  private async showRun(id: string | undefined): Promise<void> {
    if (!id || !this.session.runIds().includes(id)) {
      this.out(`  no run ${escapeControl(id ?? '')} in this session; /runs lists them`);
      return;
    }
    const result = await this.session.options.launcher.result(id);
    this.out(`  ${runCard(result)}\n  run directory: ${result.run_dir}${result.final_response ? `\n  final response:\n${escapeControl(result.final_response).replace(/^/gm, '    ')}` : ''}`);
  }

  private quit(): void {
    if (this.quitting) return;
    this.quitting = true;
    this.session.save();
    void this.commands.finally(() => this.finished());
  }

  private echo(text: string): void {
    if (!this.options.tty) this.out(`${this.options.paint('bold', 'you ›')} ${escapeControl(text)}`);
  }

  private out(text: string): void {
    this.options.io.stdout(`${text}\n`);
  }
}
