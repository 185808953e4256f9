import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { AutoApproveInterviewer, QueueInterviewer, isOrchestraError, type Interviewer } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { pathProblem } from '@orchestra/core/handlers';
import { ExitCode } from '../exit-codes.js';
import { inputOf, type CliIO } from '../io.js';
import { readAnswersFile } from '../answers-file.js';
import { loadRunConfig } from '../llm-backend.js';
import { modelFlags, runsModelFlags } from '../model-flags.js';
import { colourEnabled, painter } from '../render/colour.js';
import { runBackendFactory } from '../run-backend-factory.js';
import { ChatTerminal } from '../chat/chat-terminal.js';
import { TerminalInterviewer } from '../chat/terminal-interviewer.js';

/** Flags of `orchestra chat`. */
export interface ChatFlags {
  project?: string;
  resume?: boolean;
  autoApprove?: boolean;
  answers?: string;
  simulate?: boolean;
  allowTools?: boolean;
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/**
 * `orchestra chat [--project DIR]`: a conversation with an agent that
 * answers directly or launches pipeline runs (docs/chat.md). Messages come
 * one per line (a terminal, or piped input for scripts); the session is
 * saved after every step and `--resume` continues it. Exit 0 when the
 * session ends; 2 for bad flags or configuration.
 */
export async function chatCommand(flags: ChatFlags, io: CliIO): Promise<number> {
  if ([flags.autoApprove, flags.answers].filter(Boolean).length > 1) {
    io.stderr('orchestra: use only one of --auto-approve and --answers\n');
    return ExitCode.usage;
  }
  const models = modelFlags(flags);
  if (typeof models === 'string') {
    io.stderr(`orchestra: ${models}\n`);
    return ExitCode.usage;
  }
  if (models.backend && models.backend !== 'chat' && !flags.allowTools) {
    io.stderr(`orchestra: --backend ${models.backend} lets models run commands on this machine: add --allow-tools\n`);
    return ExitCode.usage;
  }
  const projectDir = resolve(flags.project ?? '.');
  const problem = existsSync(projectDir) ? pathProblem(projectDir, { kind: 'directory', what: 'a directory' }) : undefined;
  if (problem) {
    io.stderr(`orchestra: --project ${escapeControl(problem.message)}\n`);
    return ExitCode.usage;
  }
  const { InteractiveSession, ProjectWorkspace, RunLauncher } = await import('@orchestra/chat');
  const { chatSettings, resolveChatModel } = await import('@orchestra/llm/config');
  const { createChatModel } = await import('@orchestra/llm');
  const configFrom = join(projectDir, 'chat.dot');
  let session: InstanceType<typeof InteractiveSession>;
  let launcher: InstanceType<typeof RunLauncher>;
  let terminalInterviewer: TerminalInterviewer | undefined;
  let terminal: ChatTerminal | undefined;
  try {
    const config = await loadRunConfig(configFrom);
    // The session agent's own model (chat.model, else --model); the runs' stages keep the models they name.
    // Through the provider's own client: chat.model may name a Claude, Gemini or Ollama model.
    const model = createChatModel(resolveChatModel({ config, env: process.env, flags: models }));
    const workspace = new ProjectWorkspace(projectDir).ensure();
    // A new session does not silently replace a saved one: it is kept beside it.
    const kept = flags.resume ? undefined : workspace.archiveSession();
    if (kept) io.stderr(`orchestra: the previous session was kept as ${kept} (--resume continues a session)\n`);
    launcher = new RunLauncher({
      projectDir,
      ...(flags.simulate ? { simulate: true } : {}),
      ...(flags.allowTools ? { allowTools: true } : {}),
      backendFor: runBackendFactory(runsModelFlags(models), flags.allowTools === true, configFrom),
    });
    let interviewer: Interviewer;
    if (flags.autoApprove) interviewer = new AutoApproveInterviewer();
    else if (flags.answers) {
      const answers = await readAnswersFile(flags.answers);
      if (typeof answers === 'string') {
        io.stderr(`orchestra: ${answers}\n`);
        return ExitCode.usage;
      }
      interviewer = new QueueInterviewer(answers);
    } else {
      terminalInterviewer = new TerminalInterviewer(
        (q) => terminal?.showQuestion(q),
        () => terminal?.pump(),
      );
      interviewer = terminalInterviewer;
    }
    session = InteractiveSession.open({ model, launcher, workspace, interviewer, requireApproval: chatSettings(config).requireApproval }, flags.resume === true);
  } catch (error) {
    if (isOrchestraError(error) || error instanceof Error) {
      io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  if (flags.allowTools) io.stderr('orchestra: warning: --allow-tools: launched runs may run shell commands and give models tools on this machine\n');
  const input = inputOf(io);
  const tty = (input as { isTTY?: boolean }).isTTY === true;
  terminal = new ChatTerminal(session, terminalInterviewer, { io, paint: painter(colourEnabled(process.stdout)), tty, project: projectDir });
  if (tty) io.stderr(`orchestra chat: project ${projectDir}${flags.resume ? ' (resumed)' : ''}; /help lists the commands\n`);
  if (flags.resume) terminal.showConversation();
  const onSignal = () => terminal?.interrupt();
  process.on('SIGINT', onSignal);
  try {
    // Input is read from the start: a resumed session may ask a question while it recovers.
    const rl = createInterface({ input, terminal: false });
    rl.on('line', (line) => terminal?.line(line));
    rl.on('close', () => terminal?.end());
    if (flags.resume) await terminal.track(session.recover());
    await terminal.done;
    rl.close();
    return ExitCode.ok;
  } finally {
    process.off('SIGINT', onSignal);
    // A run still active stays the session's: --resume picks it up (it parks at a question, else stops at a safe point).
    session.detach();
    await launcher.close();
  }
}
