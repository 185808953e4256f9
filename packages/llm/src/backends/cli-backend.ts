import type { CodergenBackend, CodergenRequest, Conversation, ConversationalBackend, ConversationMessage, ConversationStart, Outcome } from '@orchestra/core';
import { AUTO_STATUS_NOTES, parseStatusFile, type ParsedStatusFile } from '@orchestra/core/store';
import { LAST_RESPONSE_LENGTH, type ProcessLedger, type RunView } from '@orchestra/core/handlers';
import { booleanAttr } from '@orchestra/core/loader';
import {
  cliAgentAnswer,
  cliAgentExitFailure,
  invokeCliAgent,
  reportCliAgentCall,
  runCliAgent,
  type CliAgentRun,
  type CliInvocation,
} from './cli-invoke.js';
import { conversationTranscript, withPreamble } from './cli-transcript.js';

export { CliAgentError, CliAgentTimeoutError, formatDuration } from './cli-agent-error.js';
export { AGENT_STDERR_FILE } from './cli-invoke.js';
export { conversationTranscript } from './cli-transcript.js';

/** How {@link createCliAgentBackend} runs its agent. */
export interface CliAgentBackendOptions {
  /** The agent's argument vector, run without a shell (e.g. `['claude', '-p']`); empty when not configured. */
  command: readonly string[];
  /** Longest one run of the command may take, in milliseconds. */
  timeoutMs: number;
  /** Where the command runs (default: the request's `workdir`). */
  cwd?: string;
  /** The environment to start from (default `process.env`). */
  env?: NodeJS.ProcessEnv;
  /** Text put before the prompt (a context preamble), separated by a blank line; none by default. */
  preamble?: (request: CodergenRequest | ConversationStart) => string;
}

/** What a CLI agent backend is: a single-shot and a conversational backend. */
export type CliAgentBackend = CodergenBackend & ConversationalBackend & Required<Pick<CodergenBackend, 'cannotRun'>>;

interface Stage {
  nodeId: string;
  stageDir: string;
  workdir: string;
  run: RunView;
  processes: ProcessLedger | undefined;
}

/** The file in the stage directory through which an agent may give the stage's outcome (spec Appendix C). */
const AGENT_STATUS_FILE = 'status.json';
/**
 * The stage's outcome from the `status.json` the agent wrote: the file
 * decides, whatever the exit code (a non-zero one is noted, and is the
 * failure reason of a FAIL or RETRY the file gives none for); `last_stage`
 * and `last_response` are set as for a text answer, under the file's own
 * context updates; a non-empty answer is kept in `response.md`. An invalid
 * file is a FAIL naming the problem.
 */
async function outcomeFromAgentStatus(request: CodergenRequest, invocation: CliInvocation, run: CliAgentRun, parsed: ParsedStatusFile): Promise<Outcome> {
  const exitFailure = cliAgentExitFailure(run);
  if (!parsed.ok) return { status: 'fail', failureReason: exitFailure ? `${parsed.failureReason}; ${exitFailure}` : parsed.failureReason };
  reportCliAgentCall(invocation, run);
  if (run.answer !== '') await request.stage.write('response.md', run.answer);
  const reported = parsed.outcome;
  const nodeId = request.node.id;
  const overridden = run.exitCode !== 0 ? ` [exit code ${run.exitCode}; the outcome is the one in status.json]` : '';
  const outcome: Outcome = {
    ...reported,
    contextUpdates: { last_stage: nodeId, last_response: run.answer.slice(0, LAST_RESPONSE_LENGTH), ...reported.contextUpdates },
    notes: `${reported.notes ?? `Stage completed: ${nodeId} (outcome from status.json)`}${overridden}`,
  };
  if ((reported.status === 'fail' || reported.status === 'retry') && !reported.failureReason) {
    outcome.failureReason = exitFailure ?? `cli agent ${run.label} reported ${reported.status} in status.json${reported.notes ? `: ${reported.notes}` : ''}`;
  }
  return outcome;
}

/**
 * A backend that hands each LLM stage to a command-line agent (`claude -p`,
 * `codex exec`, ...): the prompt (after the preamble, if any) goes to its
 * stdin, its stdout is the answer, streamed to `report.delta` as it comes.
 * The command runs with `argv` as given (no shell) in its own process group
 * (killed as a whole on timeout or abort), with `ORCHESTRA_NODE_ID`,
 * `ORCHESTRA_STAGE_DIR` and `ORCHESTRA_LOGS_DIR` added to the environment;
 * its stderr is kept in `<stageDir>/agent-stderr.log`. Conversations
 * (interactive nodes) send the whole transcript on every turn, since the
 * command keeps no session; `restore` loads a past conversation without
 * running the command.
 */
export function createCliAgentBackend(options: CliAgentBackendOptions): CliAgentBackend {
  const command = [...options.command];

  const invocation = (stage: Stage, stdin: string, signal: AbortSignal, report: CodergenRequest['report'], appendStderr: boolean): CliInvocation => ({
      command,
      timeoutMs: options.timeoutMs,
      cwd: options.cwd ?? stage.workdir,
      env: {
        ...(options.env ?? process.env),
        ORCHESTRA_NODE_ID: stage.nodeId,
        ORCHESTRA_STAGE_DIR: stage.stageDir,
        ORCHESTRA_LOGS_DIR: stage.run.logsRoot,
      },
      stdin,
      signal,
      report,
      stageDir: stage.stageDir,
      appendStderr,
      ...(stage.processes ? { processes: stage.processes } : {}),
    });

  const stageOf = (request: CodergenRequest | ConversationStart): Stage => ({
    nodeId: request.node.id,
    stageDir: request.stageDir,
    workdir: request.workdir,
    run: request.run,
    processes: request.processes,
  });

  return {
    cannotRun() {
      if (command.length === 0 || (command[0] ?? '').trim() === '') {
        return 'no CLI agent command is configured: set cli_agent.command in orchestra.yaml (e.g. [claude, -p])';
      }
      return undefined;
    },

    async run(request) {
      const stdin = withPreamble(options.preamble?.(request), request.prompt);
      // The agent may report through <stage>/status.json: nothing there may predate this run.
      await request.stage.remove(AGENT_STATUS_FILE);
      const call = invocation(stageOf(request), stdin, request.signal, request.report, false);
      const run = await runCliAgent(call);
      // Killed by a signal: the agent did not finish, so a status.json it left cannot vouch for it.
      const status = run.exitCode === null ? undefined : await request.stage.read(AGENT_STATUS_FILE);
      if (status !== undefined) return outcomeFromAgentStatus(request, call, run, parseStatusFile(status));
      if (run.exitCode === 0 && run.answer === '' && booleanAttr(request.node, 'auto_status')) {
        reportCliAgentCall(call, run);
        return { status: 'success', notes: AUTO_STATUS_NOTES };
      }
      return cliAgentAnswer(call, run);
    },

    startConversation(start): Conversation {
      const preamble = options.preamble?.(start);
      const stage = stageOf(start);
      let history: ConversationMessage[] = [];
      return {
        async send(message, { signal }) {
          const messages: ConversationMessage[] = [...history, { role: 'human', text: message }];
          const both = AbortSignal.any([start.signal, signal]);
          const reply = await invokeCliAgent(invocation(stage, conversationTranscript(preamble, messages), both, start.report, true));
          // The history grows only when the turn succeeded, so a failed send can be repeated.
          history = [...messages, { role: 'agent', text: reply }];
          return reply;
        },
        restore(messages) {
          history = messages.map((m) => ({ role: m.role, text: m.text }));
        },
        close() {},
      };
    },
  };
}
