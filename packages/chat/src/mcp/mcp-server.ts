import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RunLauncher } from '../runs/run-launcher.js';
import type { RunResult } from '../runs/run-result.js';
import { ORCHESTRATOR_SECTION } from '../session/orchestrator-section.js';
import { AnswerQuestionInputSchema, ListRunsInputSchema, McpLaunchRunInputSchema, RunIdInputSchema, RunListSchema, RunResultSchema } from './tool-schemas.js';

/** The server's name in the MCP handshake. */
export const MCP_SERVER_NAME = 'orchestra';

/** The prompt that carries {@link ORCHESTRATOR_SECTION}. */
export const ORCHESTRATE_PROMPT = 'orchestrate';

/** The tools the server offers. */
export const MCP_TOOLS = ['launch_run', 'run_status', 'list_runs', 'answer_question', 'cancel_run'] as const;

/** Options of {@link createMcpServer}. */
export interface OrchestraMcpServerOptions {
  /** The version reported in the handshake (the CLI passes its own; default: this package's). */
  version?: string;
  /** How often a waiting call checks whether the run asks a question (default 100 ms). */
  questionPollMs?: number;
}

/** What a client is told at the handshake (many put it into their model's instructions). */
const INSTRUCTIONS = `orchestra runs multi-stage AI pipelines (Graphviz DOT) in one project directory. Use launch_run for real work that benefits from a pipeline (a deliverable, work to check or refine, several independent attempts); answer small questions yourself. A run does not see your conversation: put everything it needs in task, context and context_paths. launch_run returns at once with the run id (poll run_status) unless wait is true. A run with status "waiting" asks a question: answer it with answer_question. cancel_run stops a run (it stays resumable) and returns what it finished. The "${ORCHESTRATE_PROMPT}" prompt explains when and how to launch runs and the run modes.`;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * The MCP server of `orchestra mcp`: `launch_run` (through the
 * {@link RunLauncher}, exactly as the chat session launches runs),
 * `run_status`, `list_runs`, `answer_question` and `cancel_run`, and the
 * orchestrator section as the `orchestrate` prompt. Refusals (bad
 * parameters, a path outside the project, an unknown run) come back as tool
 * errors (`isError`), never as protocol errors. Connect it to a transport
 * (`StdioServerTransport` for `orchestra mcp`); closing the server does not
 * stop runs: `launcher.close()` does.
 */
export function createMcpServer(launcher: RunLauncher, options: OrchestraMcpServerOptions = {}): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version: options.version ?? packageVersion() }, { instructions: INSTRUCTIONS });
  const pollMs = options.questionPollMs ?? 100;

  server.registerTool(
    'launch_run',
    {
      title: 'Launch an orchestra run',
      description:
        'Start a pipeline run for a task: a DOT pipeline of the project (`pipeline`), or a run-mode template (one agent or several in parallel, with or without refinement, plan only or plan then execute). The run does not see your conversation: give it the task, the context and the project files it needs. Returns the run (id, status, run_dir, ...) at once; with `wait: true`, when it stops or waits for an answer, with its final response, artifacts and tokens.',
      inputSchema: McpLaunchRunInputSchema,
      outputSchema: RunResultSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    (args, extra) =>
      reply(async () => {
        const { wait, ...input } = args;
        const id = await launcher.start(launcher.prepare(input));
        return wait ? settle(launcher, id, extra, pollMs) : launcher.result(id);
      }),
  );

  server.registerTool(
    'run_status',
    {
      title: 'Where a run stands',
      description: 'The result of a run so far: status (running, waiting, completed, failed, cancelled), the questions it waits for, completed nodes, final response, artifacts, tokens, run directory.',
      inputSchema: RunIdInputSchema,
      outputSchema: RunResultSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }) => reply(() => launcher.result(id)),
  );

  server.registerTool(
    'list_runs',
    {
      title: 'The runs of the project',
      description: 'Every run of the project (in <project>/runs/), newest first, each as run_status reports it.',
      inputSchema: ListRunsInputSchema,
      outputSchema: RunListSchema,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => reply(async () => ({ runs: await launcher.list() })),
  );

  server.registerTool(
    'answer_question',
    {
      title: 'Answer a run\'s question',
      description:
        'Answer a question a run waits for (a human gate: status "waiting", the question in `questions` with its options). The answer is an option key or label, yes/no or free text. Returns the run; with `wait: true`, when it stops or waits for another answer.',
      inputSchema: AnswerQuestionInputSchema,
      outputSchema: RunResultSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ id, question_id, answer, wait }, extra) =>
      reply(async () => {
        await launcher.answer(id, question_id, answer);
        return wait ? settle(launcher, id, extra, pollMs) : launcher.result(id);
      }),
  );

  server.registerTool(
    'cancel_run',
    {
      title: 'Cancel a run',
      description: 'Stop a run at its next safe point; it stays resumable. Returns its result: the nodes it completed and what they produced.',
      inputSchema: RunIdInputSchema,
      outputSchema: RunResultSchema,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ id }) => reply(() => launcher.cancel(id)),
  );

  server.registerPrompt(
    ORCHESTRATE_PROMPT,
    {
      title: 'Orchestrating runs with launch_run',
      description: 'When to answer directly and when to launch a run, how to fill in launch_run, and the run modes.',
    },
    () => ({
      description: 'When and how to call launch_run',
      messages: [{ role: 'user', content: { type: 'text', text: ORCHESTRATOR_SECTION } }],
    }),
  );

  return server;
}

/** A tool's value as JSON text and structured content; a refusal or failure as a tool error whose text says what went wrong. */
async function reply(work: () => Promise<RunResult | { runs: RunResult[] }>): Promise<CallToolResult> {
  try {
    const value = await work();
    return { content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: { ...value } };
  } catch (error) {
    return { content: [{ type: 'text', text: errorText(error) }], isError: true };
  }
}

function errorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}

/**
 * Waits until run `id` stops or waits for an answer (or the client gives
 * up on the call), then reports it. Sends a progress notification per
 * completed stage when the client asked for progress.
 */
async function settle(launcher: RunLauncher, id: string, extra: Extra, pollMs: number): Promise<RunResult> {
  const log = await launcher.events(id);
  const token = extra._meta?.progressToken;
  let stages = 0;
  await new Promise<void>((resolve) => {
    let done = false;
    let unfollow = () => {};
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      unfollow();
      extra.signal.removeEventListener('abort', finish);
      resolve();
    };
    const timer = setInterval(() => {
      if (!launcher.isActive(id)) return;
      launcher.supervisor.questions(id).then(
        (questions) => {
          if (questions.length > 0) finish();
        },
        () => {},
      );
    }, pollMs);
    extra.signal.addEventListener('abort', finish);
    unfollow = log.follow(log.size, {
      event: (event) => {
        if (event.type !== 'stage.completed' || token === undefined) return;
        stages += 1;
        const node = (JSON.parse(event.data) as { nodeId?: string }).nodeId;
        extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: stages, message: `${node ?? 'a stage'} completed` } }).catch(() => {});
      },
      end: finish,
    });
    if (done) unfollow();
  });
  return launcher.result(id);
}

/** This package's version (the CLI's bundle passes its own). */
function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}
