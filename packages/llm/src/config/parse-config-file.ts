import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { LineCounter, isMap, isNode, isSeq, parseDocument } from 'yaml';
import { ConfigError, type ConfigPosition } from './config-error.js';
import { OrchestraConfigSchema, type OrchestraConfig } from './config-schema.js';
import { describeIssue } from './issue-message.js';
import type { KeyPath } from './key-path.js';
import { yamlPositions, type PositionTarget } from './yaml-positions.js';

/** One validated `orchestra.yaml`, with the positions of what it writes. */
export interface ConfigLayer {
  /** Absolute path of the file. */
  readonly file: string;
  /** The file's settings; `agent.workspace`, `roles.*.contract_file` and `conference.templates.*` are made absolute against the file's directory. */
  readonly config: OrchestraConfig;
  /** Whether the file writes this key path. */
  has(path: KeyPath): boolean;
  /** Where the file writes a key path (the nearest written parent when it does not). */
  position(path: KeyPath, target?: PositionTarget): ConfigPosition;
}

const SECTIONS = 'providers:, models:, defaults:, agent:, cli_agent:, interviewer:';

function yamlErrorReason(code: string, message: string): string {
  if (code === 'MULTIPLE_DOCS') return 'YAML syntax error: expected one YAML document, found several (remove the extra ---)';
  if (code === 'DUPLICATE_KEY') return 'YAML syntax error: duplicate key (a key may appear only once in a mapping)';
  return `YAML syntax error: ${message}`;
}

function kindOf(node: unknown): string {
  if (isSeq(node)) return 'a list';
  if (isNode(node) && 'value' in node) return JSON.stringify(String(node.value));
  return 'something else';
}

/**
 * Parses and validates the text of one `orchestra.yaml` on its own (no
 * cross-checks: those run after layering). Throws {@link ConfigError} naming
 * `file`, the line and column, and the key path.
 */
export function parseConfigText(text: string, file: string): ConfigLayer {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, merge: true });
  const here = (line: number, column: number): ConfigPosition => ({ file, line, column });
  const syntax = doc.errors[0];
  if (syntax) {
    const { line, col } = lineCounter.linePos(syntax.pos[0]);
    throw new ConfigError(here(line, col), [], yamlErrorReason(syntax.code, syntax.message), { cause: syntax });
  }
  const positions = yamlPositions(doc, lineCounter);
  const position = (path: KeyPath, target?: PositionTarget): ConfigPosition => {
    const { line, column } = positions.position(path, target);
    return here(line, column);
  };
  if (doc.contents !== null && !isMap(doc.contents)) {
    throw new ConfigError(position([]), [], `expected a mapping of settings (${SECTIONS}), got ${kindOf(doc.contents)}`);
  }
  let data: unknown;
  try {
    data = doc.toJS() ?? {};
  } catch (error) {
    throw new ConfigError(position([]), [], `YAML error: ${(error as Error).message}`, { cause: error });
  }
  const parsed = OrchestraConfigSchema.safeParse(data);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .flatMap((issue) => describeIssue(issue, data, OrchestraConfigSchema))
      .map((problem) => ({ problem, at: position(problem.path, problem.target) }))
      .sort((a, b) => a.at.line - b.at.line || a.at.column - b.at.column);
    const first = problems[0];
    if (first) throw new ConfigError(first.at, first.problem.path, first.problem.reason, { issue: first.problem.issue });
  }
  const config = parsed.data ?? {};
  const workspace = config.agent?.workspace;
  if (config.agent && workspace !== undefined) config.agent.workspace = resolve(dirname(file), workspace);
  // Files a role or a template names are found next to the file that names them.
  for (const role of Object.values(config.roles ?? {})) if (role?.contract_file !== undefined) role.contract_file = resolve(dirname(file), role.contract_file);
  const templates = config.conference?.templates;
  if (templates) for (const name of Object.keys(templates) as (keyof typeof templates)[]) templates[name] = resolve(dirname(file), templates[name] as string);
  return { file, config, has: positions.has, position };
}

/** Reads, parses and validates one `orchestra.yaml`; see {@link parseConfigText}. */
export function readConfigFile(file: string): ConfigLayer {
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
    throw new ConfigError({ file: path, line: 1, column: 1 }, [], `cannot read the configuration file: ${reason}`, { cause: error });
  }
  return parseConfigText(text, path);
}
