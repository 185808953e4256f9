import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { LLM_HANDLER_TYPES, isOrchestraError, resolveHandlerType, type GraphNode } from '@orchestra/core/loader';
import type { Env, LoadedConfig, ResolvedModel } from '@orchestra/llm/config';
import type { EndpointTarget } from '../doctor/check-endpoint.js';
import { addTarget, printEndpoints } from '../doctor/endpoint-section.js';
import { ExitCode } from '../exit-codes.js';
import type { CliIO } from '../io.js';
import { loadForCommand } from '../load-pipeline-file.js';
import { modelFlags, type ModelOptions } from '../model-flags.js';

/** Flags of `orchestra doctor`. */
export interface DoctorFlags extends ModelOptions {
  /** Do not contact the endpoints. */
  offline?: boolean;
}

/** Where `orchestra doctor` looks: the environment, and the directories searched for `orchestra.yaml`. */
export interface DoctorPlace {
  env: Env;
  cwd: string;
  home: string;
}

/** A node with no settings of its own: what the configuration gives every stage by default. */
const DEFAULT_NODE: GraphNode = { id: '(default)', attributes: {}, origins: {}, subgraphClasses: [] };

/**
 * `orchestra doctor [file]`: prints the configuration files found, what a
 * stage resolves to by default (and each LLM stage of `file`), with every
 * value's source and keys masked, then checks that each configured endpoint
 * answers and lists its models, whether or not a model is named. `place`
 * defaults to this process's environment, working and home directories.
 * Exit 0 when everything resolves and answers, 1 when something does not,
 * 2 for an unusable file, flag or configuration.
 */
export async function doctorCommand(file: string | undefined, options: DoctorFlags, io: CliIO, place: DoctorPlace = { env: process.env, cwd: process.cwd(), home: homedir() }): Promise<number> {
  const flags = modelFlags(options);
  if (typeof flags === 'string') {
    io.stderr(`orchestra: ${flags}\n`);
    return ExitCode.usage;
  }
  let nodes: GraphNode[] = [];
  if (file !== undefined) {
    const loaded = await loadForCommand(file, io);
    if (!loaded) return ExitCode.usage;
    if (!loaded.graph) {
      io.stderr(`orchestra: ${file} is not a valid pipeline (run orchestra validate ${file})\n`);
      return ExitCode.usage;
    }
    nodes = [...loaded.graph.nodes.values()].filter((n) => LLM_HANDLER_TYPES.has(resolveHandlerType(n)));
  }
  const llm = await import('@orchestra/llm/config');
  let config: LoadedConfig;
  try {
    config = llm.loadConfig({ ...(file === undefined ? {} : { pipelineFile: resolve(place.cwd, file) }), cwd: place.cwd, home: place.home, env: place.env });
  } catch (error) {
    if (isOrchestraError(error)) {
      io.stderr(`orchestra: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  let problems = 0;

  io.stdout('Configuration files (nearest first):\n');
  if (config.files.length === 0) io.stdout('  none found; using the environment (OPENAI_API_KEY, OPENAI_BASE_URL) and built-in defaults\n');
  for (const f of config.files) io.stdout(`  ${f}\n`);

  const resolutions: ResolvedModel[] = [];
  /** The lines describing what a node resolves to (or why it cannot). */
  const describe = (node: GraphNode, counts = true): string[] => {
    try {
      const resolved = llm.resolveModel(node, { config, env: place.env, flags });
      resolutions.push(resolved);
      return llm.describeResolution(resolved);
    } catch (error) {
      if (!isOrchestraError(error)) throw error;
      if (counts) problems++;
      return [`✗ ${error.message}`];
    }
  };
  const print = (title: string, lines: readonly string[]): void => {
    io.stdout(`\n${title}:\n`);
    for (const line of lines) io.stdout(`  ${line}\n`);
  };
  // With a pipeline, only its stages must resolve: a missing default matters only to stages without settings.
  const fallback = describe(DEFAULT_NODE, file === undefined);
  print('A stage with no model settings of its own', fallback);
  // Stages that resolve alike are listed together; those like the default are only named.
  const groups = new Map<string, { ids: string[]; lines: string[] }>();
  for (const node of nodes) {
    const lines = describe(node);
    const key = lines.join('\n');
    const group = groups.get(key) ?? { ids: [], lines };
    group.ids.push(node.id);
    groups.set(key, group);
  }
  for (const { ids, lines } of groups.values()) {
    const title = `${ids.length === 1 ? 'Stage' : 'Stages'} ${ids.join(', ')}`;
    if (lines.join('\n') === fallback.join('\n')) io.stdout(`\n${title}: as above\n`);
    else print(title, lines);
  }

  const interviewer = llm.interviewerSettings(config);
  io.stdout(`\nHuman questions: ${interviewer.autoApprove ? 'auto-approved (interviewer.auto_approve)' : 'asked at the terminal'}${interviewer.timeoutMs !== undefined ? `, waiting up to ${interviewer.timeoutMs / 1000}s` : ''}\n`);
  const agent = llm.agentSettings(config);
  io.stdout(`Agent stages: workspace ${agent.workspace}, tools ${agent.tools.join(', ') || '(none)'}, at most ${agent.maxTurns} model calls\n`);
  const cli = llm.cliAgentSettings(config);
  io.stdout(`CLI agent: ${cli.command ? JSON.stringify(cli.command) : 'no command configured (cli_agent.command)'}\n`);

  problems += printRoles(config, nodes, llm, io);

  // The stages' endpoints first (with the models they want), then every other configured one.
  const targets = new Map<string, EndpointTarget>();
  for (const r of resolutions) if (r.backend !== 'cli') addTarget(targets, r, r.model);
  for (const endpoint of llm.configuredEndpoints({ config, env: place.env, flags })) addTarget(targets, endpoint);
  problems += await printEndpoints([...targets.values()], options, io);
  io.stdout(problems === 0 ? '\nok\n' : `\n${problems} problem(s) found\n`);
  return problems === 0 ? ExitCode.ok : ExitCode.failed;
}

/** A contract's first line, shortened, for a one-line listing. */
function gist(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/**
 * The conference roles `roles:` defines (evidence rule, tier, model,
 * contract), and for each conference stage of the pipeline the roles it
 * names that are not defined: each one a problem.
 */
function printRoles(config: LoadedConfig, nodes: readonly GraphNode[], llm: typeof import('@orchestra/llm/config'), io: CliIO): number {
  const roles = config.config.roles ?? {};
  const names = Object.keys(roles);
  io.stdout(names.length === 0 ? 'Conference roles: none defined (roles: in orchestra.yaml)\n' : 'Conference roles:\n');
  for (const name of names) {
    const role = roles[name];
    if (!role) continue;
    const contract = role.contract !== undefined ? JSON.stringify(gist(role.contract)) : `from ${role.contract_file}`;
    io.stdout(`  ${name}: evidence ${role.evidence ?? 'any'}, tier ${role.tier ?? 'T3'}, model ${role.model ?? "the stage's"}, contract ${contract}\n`);
  }
  let problems = 0;
  for (const node of nodes) {
    if (resolveHandlerType(node) !== 'conference') continue;
    for (const name of (node.attributes['conference.roles'] ?? '').split(',').map((r) => r.trim()).filter(Boolean)) {
      const unknown = llm.unknownRoleMessage(config, name);
      if (!unknown) continue;
      problems++;
      io.stdout(`  ✗ stage ${node.id}: ${unknown}\n`);
    }
  }
  return problems;
}
