import { ArtifactSchemaError, artifactSchemaFromJson, type ArtifactSchema } from './artifact-schema.js';
import { schemaAt, type JsonSchema } from './requirement.js';
import type { ArtifactIssues } from './schema-issues.js';
import { PATHS_SEPARATOR } from './semantic-checks.js';

/** What a section's name may hold: it becomes part of a tool name. */
const SECTION_NAME = /^[A-Za-z0-9_-]+$/;
/** The longest tool name the providers accept. */
const MAX_TOOL_NAME = 64;

/** The tool a section is submitted with: `<finalization tool>_<section>` (`submit_thread_design_threads`). */
export function sectionToolName(toolName: string, section: string): string {
  return `${toolName}_${section}`;
}

/** The root's `properties`, following a root `$ref`. */
function rootProperties(json: JsonSchema): Record<string, JsonSchema> {
  const root = schemaAt(json, []);
  const properties = root?.properties;
  return typeof properties === 'object' && properties !== null && !Array.isArray(properties) ? (properties as Record<string, JsonSchema>) : {};
}

/**
 * Reads `output.sections`: comma-separated top-level properties of the
 * output schema, in the order they are serialized. Every property of the
 * schema's root must be in exactly one section (the sections together are
 * the artifact). Undefined when the attribute is absent or empty; an
 * {@link ArtifactSchemaError} naming the node for a name the schema does
 * not have, a property left out, a repeat, or a name that cannot be part
 * of a tool name.
 */
export function outputSections(raw: string | undefined, schema: ArtifactSchema, toolName: string, nodeId: string): string[] | undefined {
  const names = (raw ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  if (names.length === 0) return undefined;
  const properties = Object.keys(rootProperties(schema.json));
  const fail = (why: string) => new ArtifactSchemaError(`node ${nodeId}: output.sections ${why}`);
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name)) throw fail(`names ${JSON.stringify(name)} twice`);
    seen.add(name);
    if (!properties.includes(name)) throw fail(`names ${JSON.stringify(name)}, which is no top-level property of ${schema.source} (it has ${properties.map((p) => JSON.stringify(p)).join(', ') || 'none'})`);
    if (!SECTION_NAME.test(name)) throw fail(`names ${JSON.stringify(name)}: a section becomes part of a tool name, so letters, digits, _ and - only`);
    const tool = sectionToolName(toolName, name);
    if (tool.length > MAX_TOOL_NAME) throw fail(`names ${JSON.stringify(name)}: its tool ${tool} is longer than ${MAX_TOOL_NAME} characters`);
  }
  const left = properties.filter((p) => !seen.has(p));
  if (left.length > 0) throw fail(`leaves out ${left.map((p) => JSON.stringify(p)).join(', ')}: every top-level property of ${schema.source} belongs to a section`);
  return names;
}

/**
 * The schema of one section's tool: an object with that one property,
 * required, described as the output schema describes it (its `$defs` kept,
 * so local `$ref`s still resolve).
 */
export function sectionSchema(schema: ArtifactSchema, section: string): ArtifactSchema {
  const property = rootProperties(schema.json)[section];
  if (!property) throw new ArtifactSchemaError(`${schema.source} has no top-level property ${JSON.stringify(section)}`);
  const { $schema, $defs, definitions } = schema.json;
  const json: JsonSchema = {
    ...($schema !== undefined ? { $schema } : {}),
    type: 'object',
    additionalProperties: false,
    required: [section],
    properties: { [section]: property },
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
  };
  return artifactSchemaFromJson(json, `${schema.source}#/properties/${section}`);
}

/**
 * The sections a finding's `field` is in: the top-level property each path
 * starts with (`tensions[0].threads[1]` → `tensions`; a `covers` finding
 * over a list of paths names each). Empty when it names none, such as `$`.
 */
export function sectionsOfField(field: string, sections: readonly string[]): string[] {
  const found = new Set<string>();
  for (const path of field.split(PATHS_SEPARATOR)) {
    const top = /^(?:\$\.)?([^.[\]]+)/.exec(path.trim())?.[1];
    if (top !== undefined && sections.includes(top)) found.add(top);
  }
  return sections.filter((s) => found.has(s));
}

/**
 * Sorts a verdict's findings by the section at fault, in section order. A
 * finding that names no section (the artifact as a whole) goes to every
 * section: each is then serialized again.
 */
export function issuesBySection(issues: ArtifactIssues, sections: readonly string[]): Map<string, ArtifactIssues> {
  const by = new Map<string, ArtifactIssues>();
  const into = (field: string): ArtifactIssues[] => {
    const named = sectionsOfField(field, sections);
    return (named.length > 0 ? named : sections).map((s) => {
      let set = by.get(s);
      if (!set) by.set(s, (set = { invalid: [], missing: [], unknown: [] }));
      return set;
    });
  };
  for (const issue of issues.invalid) for (const set of into(issue.field)) set.invalid.push(issue);
  for (const issue of issues.missing) for (const set of into(issue.field)) set.missing.push(issue);
  for (const field of issues.unknown) for (const set of into(field)) set.unknown.push(field);
  return new Map(sections.filter((s) => by.has(s)).map((s) => [s, by.get(s) as ArtifactIssues]));
}
