import type {
  CodergenBackend,
  CodergenRequest,
  Conversation,
  ConversationalBackend,
  ConversationMessage,
  ConversationStart,
  ProcessLedger,
  RunView,
} from '@orchestra/core';
import { invokeCliAgent } from './cli-invoke.js';
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

  const invoke = (stage: Stage, stdin: string, signal: AbortSignal, report: CodergenRequest['report'], appendStderr: boolean) =>
    invokeCliAgent({
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
      return invoke(stageOf(request), stdin, request.signal, request.report, false);
    },

    startConversation(start): Conversation {
      const preamble = options.preamble?.(start);
      const stage = stageOf(start);
      let history: ConversationMessage[] = [];
      return {
        async send(message, { signal }) {
          const messages: ConversationMessage[] = [...history, { role: 'human', text: message }];
          const both = AbortSignal.any([start.signal, signal]);
          const reply = await invoke(stage, conversationTranscript(preamble, messages), both, start.report, true);
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
