import { Command, CommanderError } from 'commander';
import { ExitCode } from './exit-codes.js';
import { directProcessIO, guardStandardStreams, processIO, type CliIO } from './io.js';
import { CLI_VERSION } from './version.js';

import type { ResumeCommandFlags, RunCommandFlags } from './commands/run.js';
import { commandModules } from './command-modules.js';
import { colourEnabled } from './render/colour.js';

// Commands are imported when they run, so `validate` never loads the engine (start-up time):
// `validate` from this bundle, the others through commandModules.

/**
 * How `run` and `resume` show progress: live on a terminal (not in CI), in
 * colour when stdout takes it. Asked only by them: touching `process.stdout`
 * or `process.stderr` sets up a stream (for a pipe, node's net and stream
 * modules), which `validate` does without.
 */
function terminal(): { live: boolean; colour: boolean } {
  return { live: process.stderr.isTTY === true && !process.env.CI, colour: colourEnabled(process.stdout) };
}

/**
 * Runs the `orchestra` command line with `argv` (without the node and script
 * entries) and returns the exit code. Never throws for user errors; with
 * `--debug` an unexpected error prints its stack.
 */
export async function runCli(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  let exitCode: number = ExitCode.ok;
  const program = new Command('orchestra')
    .description('Run multi-stage AI pipelines written as Graphviz DOT files.')
    .version(CLI_VERSION, '-V, --version')
    .option('--debug', 'print stack traces of unexpected errors')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run `orchestra --help` for usage)')
    // validate writes through its io only (directly, see below); the other commands' code may also write to process.stdout or process.stderr.
    .hook('preAction', (_program, command) => {
      if (io === processIO && command.name() !== 'validate') guardStandardStreams();
    });

  program
    .command('validate')
    .description('check pipeline files and print every diagnostic')
    .argument('<files...>', 'pipeline .dot files')
    .option('--json', 'print the diagnostics of every file as one JSON array')
    .action(async (files: string[], options: { json?: boolean }) => {
      exitCode = await (await import('./commands/validate.js')).validateCommand(files, { ...options, checkConfig: async (graph, file) => (await commandModules.configChecks()).configDiagnostics(graph, file) }, io === processIO ? directProcessIO() : io);
    });

  program
    .command('render')
    .description('draw a pipeline as SVG (no Graphviz install needed), with a run\'s node states if --run is given')
    .argument('<file>', 'pipeline .dot file')
    .option('-o, --output <file.svg>', 'write the SVG there instead of to stdout')
    .option('--run <logs-dir>', 'colour the nodes by their state in this run')
    .action(async (file: string, options: { output?: string; run?: string }) => {
      exitCode = await (await commandModules.render()).renderCommand(file, options, io);
    });

  program
    .command('init')
    .description('create a starter project: a pipeline, an orchestra.yaml template, a vitest test of the pipeline, and orchestra\'s packages in vendor/')
    .argument('[dir]', 'the project directory (default: the current one; created if missing)')
    .option('--force', 'overwrite pipeline.dot, orchestra.yaml and test/pipeline.test.ts if they exist')
    .option('--core <spec>', 'the @orchestra/core dependency for package.json, replacing one there (default: the copy this orchestra carries, put in vendor/), e.g. file:/path/to/orchestra-core-0.1.0.tgz')
    .action(async (dir: string | undefined, options: { force?: boolean; core?: string }) => {
      exitCode = await (await commandModules.init()).initCommand(dir, options, io);
    });

  program
    .command('run')
    .description('run a pipeline')
    .argument('<file>', 'pipeline .dot file')
    .option('--simulate', 'run without an LLM: LLM stages return simulated responses')
    .option('--auto-approve', 'answer every human gate with its first choice (for CI)')
    .option('--answers <file.json>', 'answer human gates from a JSON array of answers, in order')
    .option('--park', 'at a human gate, save the run and exit 3 instead of asking (see `orchestra answer`)')
    .option('--logs-dir <dir>', 'run directory (default .orchestra/runs/<timestamp>-<pipeline>)')
    .option('--store <url|dir>', 'keep runs in this store: a PostgreSQL URL (postgres://user@host:port/db, executed by orchestra worker) or a directory of runs (default $ORCHESTRA_STORE, else run directories)')
    .option('--detach', 'with a PostgreSQL store: queue the run for a worker, print its id and exit')
    .option('--set <key=value>', 'initial context value (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--context-file <file.json>', 'initial context values from a JSON object (keys as written; --set wins)')
    .option('--quiet', 'print only the summary and errors')
    .option('--json', 'print events as JSON lines')
    .option('--model <name>', 'model (or orchestra.yaml alias) for every LLM stage of this run')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for this run (e.g. http://127.0.0.1:8080/v1)')
    .option('--backend <kind>', 'LLM stage backend for this run: chat, agent or cli')
    .option('-i, --interactive', 'phased LLM stages without agent.mode discuss with you (default when stdin and stdout are terminals)')
    .option('-I, --no-interactive', 'phased LLM stages without agent.mode discuss on their own')
    .option('--otel', 'send OpenTelemetry traces of the run over OTLP/HTTP ($OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318); on whenever that variable is set')
    .option('--record <file>', 'record every model request and reply, human answer, tool node result and agent tool call to this cassette (API keys removed)')
    .option('--replay <file>', 'answer the run from this cassette: no network, no person, no tool runs (recorded from this pipeline with --record)')
    .option('--replay-mode <mode>', 'strict (default): stop at the first request the cassette does not hold; lenient: answer it with the stage\'s next recorded reply and warn')
    .action(async (file: string, options: RunCommandFlags & { set: string[] }) => {
      exitCode = await (await commandModules.run()).runCommand(file, { ...options, ...terminal() }, io);
    });

  const recipe = program.command('recipe').description('recipes: a model-free tool phase, tool-less agents in order, a Definition of Done (docs/recipes.md)');
  recipe
    .command('validate')
    .description("check recipes' wiring without running them (all of the project's when none is named)")
    .argument('[ids...]', 'recipe ids')
    .option('--project <dir>', 'the project: recipes/, orchestra.yaml (default: the working directory)')
    .action(async (ids: string[], options: { project?: string }) => {
      exitCode = await (await commandModules.recipe()).recipeValidateCommand(ids, options, io);
    });
  recipe
    .command('show')
    .description("a recipe's steps, or the pipeline it compiles to")
    .argument('<id>', 'recipe id')
    .option('--project <dir>', 'the project (default: the working directory)')
    .option('--task <text>', 'the task to compile it for')
    .option('--dot', 'print the compiled DOT pipeline')
    .action(async (id: string, options: { project?: string; task?: string; dot?: boolean }) => {
      exitCode = await (await commandModules.recipe()).recipeShowCommand(id, options, io);
    });
  const recipeRun = recipe
    .command('run')
    .description('run a recipe for a task (the flags of orchestra run apply)')
    .argument('<id>', 'recipe id')
    .requiredOption('--task <text>', 'what to do')
    .option('--project <dir>', 'the project (default: the working directory)');
  for (const option of program.commands.find((c) => c.name() === 'run')?.options ?? []) recipeRun.addOption(option);
  recipeRun.action(async (id: string, options: RunCommandFlags & { set: string[]; project?: string; task: string }) => {
    exitCode = await (await commandModules.recipe()).recipeRunCommand(id, { ...options, ...terminal() }, io);
  });

  program
    .command('plan')
    .description('a session plan: the chief splits what you want into tasks, you approve them, each runs as a recipe (docs/recipes.md)')
    .argument('[intent]', 'what you want done')
    .option('--project <dir>', 'the project (default: the working directory)')
    .option('--resume', 'go on with the saved plan (.orchestra/plan.json)')
    .option('--force <task>', 'with --resume: start this task although a dependency has not finished (repeatable)', (v: string, acc: string[]) => [...acc, v], [] as string[])
    .option('--simulate', 'no model: the chief and the agents give simulated replies')
    .option('--auto-approve', 'approve the plan and answer every question with its first choice (for CI)')
    .option('--answers <file.json>', 'answer the questions from a JSON array of answers, in order')
    .option('--model <name>', 'as for run')
    .option('--base-url <url>', 'as for run')
    .option('--backend <kind>', 'as for run')
    .action(async (intent: string | undefined, options: Record<string, unknown>) => {
      exitCode = await (await commandModules.plan()).planCommand(intent, options, io);
    });

  program
    .command('route')
    .description("the recipe recipes/router.yaml picks for a task (no model)")
    .argument('<task>', 'the task')
    .option('--project <dir>', 'the project (default: the working directory)')
    .option('--json', 'print the result as JSON')
    .action(async (task: string, options: { project?: string; json?: boolean }) => {
      exitCode = await (await commandModules.recipe()).routeCommand(task, options, io);
    });

  program
    .command('resume')
    .description('continue an interrupted or crashed run from its checkpoint')
    .argument('<run>', "the run directory (with --store: the run's id)")
    .option('--simulate', 'run without an LLM: LLM stages return simulated responses')
    .option('--auto-approve', 'answer every human gate with its first choice (for CI)')
    .option('--answers <file.json>', 'answer human gates from a JSON array of answers, in order')
    .option('--park', 'at a human gate, save the run and exit 3 instead of asking (see `orchestra answer`)')
    .option('--quiet', 'print only the summary and errors')
    .option('--json', 'print events as JSON lines')
    .option('--model <name>', 'model (or orchestra.yaml alias) for every LLM stage of this run')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for this run (e.g. http://127.0.0.1:8080/v1)')
    .option('--backend <kind>', 'LLM stage backend for this run: chat, agent or cli')
    .option('--cwd <dir>', 'run tool commands in <dir> instead of the directory the run started in')
    .option('--store <url|dir>', 'the store holding the run: a PostgreSQL URL (postgres://user@host:port/db, executed by orchestra worker) or a directory of runs (default $ORCHESTRA_STORE, else run directories)')
    .option('--detach', 'with a PostgreSQL store: queue the run for a worker instead of continuing it here')
    .option('-i, --interactive', 'phased LLM stages without agent.mode discuss with you (default: as the run started)')
    .option('-I, --no-interactive', 'phased LLM stages without agent.mode discuss on their own')
    .option('--otel', 'send OpenTelemetry traces of the run over OTLP/HTTP ($OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318); on whenever that variable is set')
    .action(async (logsDir: string, options: ResumeCommandFlags) => {
      exitCode = await (await commandModules.run()).resumeCommand(logsDir, { ...options, ...terminal() }, io);
    });

  program
    .command('answer')
    .description('answer the question a parked run waits for')
    .argument('<run>', "the run directory (with --store: the run's id)")
    .argument('<answer>', 'an option key or label, yes/no, or free text')
    .option('--question <id>', 'which pending question (when several are pending)')
    .option('--replace', 'replace an answer already recorded for the question')
    .option('--store <url|dir>', 'the store holding the run (a PostgreSQL store queues the run for a worker once every question has an answer): a PostgreSQL URL (postgres://user@host:port/db, executed by orchestra worker) or a directory of runs (default $ORCHESTRA_STORE, else run directories)')
    .action(async (logsDir: string, answer: string, options: { question?: string; replace?: boolean; store?: string }) => {
      exitCode = await (await commandModules.answer()).answerCommand(logsDir, answer, options, io);
    });

  program
    .command('doctor')
    .description('show the model configuration (orchestra.yaml, environment, flags) and check that each endpoint answers')
    .argument('[file]', 'a pipeline: show what each of its LLM stages resolves to')
    .option('--model <name>', 'as for run')
    .option('--base-url <url>', 'as for run')
    .option('--backend <kind>', 'as for run')
    .option('--offline', 'do not contact the endpoints')
    .action(async (file: string | undefined, options: { model?: string; baseUrl?: string; backend?: string; offline?: boolean }) => {
      exitCode = await (await commandModules.doctor()).doctorCommand(file, options, io);
    });

  program
    .command('status')
    .description('show where a run stands and what it waits for')
    .argument('<run>', "the run directory (with --store: the run's id)")
    .option('--json', 'print the status as one JSON object')
    .option('--store <url|dir>', 'the store holding the run: a PostgreSQL URL (postgres://user@host:port/db, executed by orchestra worker) or a directory of runs (default $ORCHESTRA_STORE, else run directories)')
    .action(async (logsDir: string, options: { json?: boolean; store?: string }) => {
      exitCode = await (await commandModules.status()).statusCommand(logsDir, options, io);
    });

  program
    .command('serve')
    .description('serve the HTTP API and the web page: start runs, follow them live, answer their questions from a browser')
    .option('--host <address>', 'address to listen on (default 127.0.0.1; anything else needs --token or --no-auth)')
    .option('--port <n>', 'port to listen on (default 7070; 0 picks a free one)')
    .option('--runs-dir <dir>', 'where runs are kept (default .orchestra/runs)')
    .option('--store <url>', 'show and steer the runs of this PostgreSQL database (default $ORCHESTRA_STORE): new runs and resumes are queued for orchestra worker')
    .option('--project <dir>', "serve this project's session plan (/plan and the page's plan view; needs --allow-tools): its runs are kept in <dir>/.orchestra/runs")
    .option('--token <token>', 'require this bearer token on every request (or set $ORCHESTRA_TOKEN)')
    .option('--no-auth', 'serve a non-loopback address without a token (prints a warning)')
    .option('--allow-tools', 'accept pipelines that run shell commands or read files (tool nodes, sub-pipelines, tool hooks)')
    .option('--cors <origin>', 'let pages from this origin call the API')
    .option('--allowed-host <host[:port]>', 'also answer requests for this host name (repeatable; default: the address listened on and localhost)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--max-body <bytes>', 'largest request body (default 1048576, at most 1073741824)')
    .option('--model <name>', 'model (or orchestra.yaml alias) for the LLM stages of runs that name none')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for the runs')
    .option('--backend <kind>', 'LLM stage backend for the runs: chat, agent or cli')
    .option('--otel', 'send OpenTelemetry traces of the runs it drives over OTLP/HTTP ($OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318); on whenever that variable is set')
    .action(async (options: import('./commands/serve.js').ServeFlags) => {
      exitCode = await (await commandModules.serve()).serveCommand(options, io);
    });

  program
    .command('worker')
    .description('execute the runs queued in a PostgreSQL store (orchestra run --detach, answers, runs whose worker died) until stopped')
    .option('--store <url>', 'the PostgreSQL database (default $ORCHESTRA_STORE)')
    .option('--concurrency <n>', 'runs driven at once (default 2)')
    .option('--allow-tools', 'accept pipelines that run shell commands or read files (tool nodes, sub-pipelines, tool hooks)')
    .option('--model <name>', 'model (or orchestra.yaml alias) for the LLM stages of runs that name none')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for the runs')
    .option('--backend <kind>', 'LLM stage backend for the runs: chat, agent or cli')
    .option('--lease <seconds>', 'how long a run stays with this worker unless renewed: another takes it over this long after the worker dies (default 30)')
    .option('--otel', 'send OpenTelemetry traces of the runs it drives over OTLP/HTTP ($OTEL_EXPORTER_OTLP_ENDPOINT, default http://localhost:4318); on whenever that variable is set')
    .action(async (options: import('./commands/worker.js').WorkerFlags) => {
      exitCode = await (await commandModules.worker()).workerCommand(options, io);
    });

  const db = program.command('db').description('the PostgreSQL store (docs/scale-out.md)');
  db.command('migrate')
    .description("bring the database's orchestra schema up to date (also done on first use; safe to repeat)")
    .option('--store <url>', 'the PostgreSQL database (default $ORCHESTRA_STORE)')
    .action(async (options: { store?: string }) => {
      exitCode = await (await commandModules.db()).dbMigrateCommand(options, io);
    });

  program
    .command('chat')
    .description('talk with an agent that answers directly or launches pipeline runs of a project (one message per line; /help lists the commands)')
    .option('--project <dir>', 'the project: CONTEXT.md, filepaths.json, runs/, deliverables/ (default: the current directory)')
    .option('--resume', 'continue the project\'s saved session (and the run it was waiting for)')
    .option('--auto-approve', 'approve every run and answer every question of a launched run with its first choice')
    .option('--answers <file.json>', 'answer approvals and the questions of launched runs from a JSON array, in order')
    .option('--simulate', 'launched runs call no model: their LLM stages return simulated responses (the session agent still does)')
    .option('--allow-tools', 'accept project pipelines that run shell commands or read files, and models with tools')
    .option('--model <name>', 'model (or orchestra.yaml alias) for the session agent and the runs')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for the session agent and the runs')
    .option('--backend <kind>', 'LLM stage backend for the runs: chat, agent or cli (agent and cli need --allow-tools)')
    .action(async (options: import('./commands/chat.js').ChatFlags) => {
      exitCode = await (await commandModules.chat()).chatCommand(options, io);
    });

  program
    .command('mcp')
    .description('serve MCP on stdin/stdout: other programs (Claude Code, Codex, ...) launch runs of a project, follow them and answer their questions')
    .option('--project <dir>', 'the project: pipelines and context files are read from it, runs kept in <dir>/runs (default: the current directory)')
    .option('--simulate', 'run without an LLM: LLM stages return simulated responses')
    .option('--allow-tools', 'accept pipelines that run shell commands or read files (tool nodes, sub-pipelines, tool hooks), and models with tools')
    .option('--model <name>', 'model (or orchestra.yaml alias) for the LLM stages of runs that name none')
    .option('--base-url <url>', 'OpenAI-compatible endpoint for the runs')
    .option('--backend <kind>', 'LLM stage backend for the runs: chat, agent or cli (agent and cli need --allow-tools)')
    .action(async (options: import('./commands/mcp.js').McpFlags) => {
      exitCode = await (await commandModules.mcp()).mcpCommand(options, io);
    });

  if (argv.length === 0) {
    io.stderr(program.helpInformation());
    return ExitCode.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
        return ExitCode.ok;
      }
      return ExitCode.usage;
    }
    const debug = argv.includes('--debug');
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`orchestra: internal error: ${message}\n`);
    if (debug && error instanceof Error && error.stack) io.stderr(`${error.stack}\n`);
    else io.stderr('(run again with --debug for details)\n');
    return ExitCode.internal;
  }
}
