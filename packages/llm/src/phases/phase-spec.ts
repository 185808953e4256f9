import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { GraphNode } from '@orchestra/core';
import type * as z from 'zod';
import { ArtifactSchemaError, artifactSchemaFromZod, loadArtifactSchema } from './artifact-schema.js';
import { outputSections } from './artifact-sections.js';
import { parseSemanticChecks } from './semantic-checks.js';
import { DEFAULT_VALIDATION_RETRIES, finalizationToolName } from './serialize.js';
import type { ArtifactRules, SemanticValidator } from './validate-artifact.js';

/** Discuss turns of a direct (non-interactive) phased node when it sets no `max_discuss_turns`. */
export const DEFAULT_DIRECT_DISCUSS_TURNS = 1;
/** Agent replies in an interactive Discuss when the node sets no `max_discuss_turns`. */
export const DEFAULT_INTERACTIVE_DISCUSS_TURNS = 10;
/** Tool round-trips (a reply calling tools, then their results) one Discuss turn may take when the node sets no `max_tool_rounds`. */
export const DEFAULT_MAX_TOOL_ROUNDS = 10;

/** Schemas and validators a library registers for `output.schema="zod:<name>"` and `output.validators`. */
export interface PhaseRegistry {
  /** By name: `output.schema="zod:beats"` uses `schemas.beats`. */
  schemas?: Readonly<Record<string, z.ZodType>>;
  /** By name: `output.validators="no_spoilers, word_budget"`. */
  validators?: Readonly<Record<string, SemanticValidator>>;
}

/** How a phased node is set up, from its attributes. */
export interface PhaseSpec {
  rules: ArtifactRules;
  /** The finalization tool (`output.tool`, default `submit_<node>`). */
  toolName: string;
  /** The context key the artifact goes to (`output.key`, default `<node>.output`). */
  key: string;
  validationRetries: number;
  /** `output.sections`: the top-level properties Serialize submits one at a time, in order (see `serializeSections`). */
  sections?: readonly string[];
  /** Turns of the Discuss phase (`max_discuss_turns`): a turn ends on a reply without a tool call, or on `ready_to_summarize`. */
  discussTurns: number;
  /** Tool round-trips one Discuss turn may take (`max_tool_rounds`) before the model is told to answer. */
  maxToolRounds: number;
}

/** Whether a node is phased: it has an output schema. */
export function isPhasedNode(node: GraphNode): boolean {
  return Boolean(node.attributes['output.schema']?.trim());
}

/** Why a phased node cannot run, if it cannot: the `cli` backend has no tool calls to serialize with. */
export function phasedNodeProblem(node: GraphNode, backend?: string): string | undefined {
  if (!isPhasedNode(node)) return undefined;
  if (backend === 'cli') return `node ${node.id} has an output schema, which the cli backend cannot produce (it has no tool calls); use the chat or agent backend for it`;
  return undefined;
}

function count(node: GraphNode, key: string, fallback: number, min: number): number {
  const raw = node.attributes[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new ArtifactSchemaError(`node ${node.id}: ${key}=${JSON.stringify(raw)} is not an integer >= ${min}`);
  return n;
}

/**
 * Reads a phased node's attributes: `output.schema` (a JSON Schema file,
 * relative to the pipeline's directory, or `zod:<name>`), `output.checks`
 * (a checks declaration file), `output.validators`, `output.key`,
 * `output.tool`, `output.sections`, `validation_retries`, `max_discuss_turns`, `max_tool_rounds`. Throws an
 * {@link ArtifactSchemaError} naming the node for anything unusable.
 */
export function phaseSpec(node: GraphNode, pipelineFile: string | null | undefined, workdir: string, registry: PhaseRegistry = {}, interactive = false): PhaseSpec {
  const base = pipelineFile ? dirname(pipelineFile) : workdir;
  const at = (file: string) => (isAbsolute(file) ? file : resolve(base, file));
  const schemaRef = (node.attributes['output.schema'] ?? '').trim();
  let schema;
  if (schemaRef.startsWith('zod:')) {
    const name = schemaRef.slice(4);
    const registered = registry.schemas?.[name];
    if (!registered) throw new ArtifactSchemaError(`node ${node.id}: output.schema names zod schema ${JSON.stringify(name)}, which is not registered (registered: ${Object.keys(registry.schemas ?? {}).join(', ') || 'none'})`);
    schema = artifactSchemaFromZod(registered, name);
  } else {
    schema = loadArtifactSchema(at(schemaRef));
  }
  const rules: ArtifactRules = { schema };
  const checksFile = node.attributes['output.checks']?.trim();
  if (checksFile) {
    const file = at(checksFile);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ArtifactSchemaError(`node ${node.id}: cannot read output.checks ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
    }
    const checks = parseSemanticChecks(json, file);
    if (typeof checks === 'string') throw new ArtifactSchemaError(checks);
    rules.checks = checks;
  }
  const names = (node.attributes['output.validators'] ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length > 0) {
    rules.validators = names.map((name) => {
      const validator = registry.validators?.[name];
      if (!validator) throw new ArtifactSchemaError(`node ${node.id}: output.validators names ${JSON.stringify(name)}, which is not registered`);
      return validator;
    });
  }
  const toolName = node.attributes['output.tool']?.trim() || finalizationToolName(node.id);
  const sections = outputSections(node.attributes['output.sections'], schema, toolName, node.id);
  return {
    rules,
    toolName,
    ...(sections ? { sections } : {}),
    key: node.attributes['output.key']?.trim() || `${node.id}.output`,
    validationRetries: count(node, 'validation_retries', DEFAULT_VALIDATION_RETRIES, 0),
    discussTurns: count(node, 'max_discuss_turns', interactive ? DEFAULT_INTERACTIVE_DISCUSS_TURNS : DEFAULT_DIRECT_DISCUSS_TURNS, 1),
    maxToolRounds: count(node, 'max_tool_rounds', DEFAULT_MAX_TOOL_ROUNDS, 0),
  };
}

/** The three phases of a phased node. */
export type PhaseName = 'discuss' | 'summarize' | 'serialize';

const phaseNodes = new WeakMap<GraphNode, Map<PhaseName, GraphNode>>();

/**
 * The node as a phase sees it: `<phase>.llm_model` and
 * `<phase>.llm_provider` (from the node or the stylesheet) replace the
 * node's own for that phase. The same object for the same node and phase,
 * so model resolution is cached like any node's.
 */
export function phaseNode(node: GraphNode, phase: PhaseName): GraphNode {
  const model = node.attributes[`${phase}.llm_model`];
  const provider = node.attributes[`${phase}.llm_provider`];
  if (model === undefined && provider === undefined) return node;
  let byPhase = phaseNodes.get(node);
  if (!byPhase) phaseNodes.set(node, (byPhase = new Map()));
  let copy = byPhase.get(phase);
  if (!copy) {
    const attributes = { ...node.attributes, ...(model !== undefined ? { llm_model: model } : {}), ...(provider !== undefined ? { llm_provider: provider } : {}) };
    copy = { ...node, attributes };
    byPhase.set(phase, copy);
  }
  return copy;
}
