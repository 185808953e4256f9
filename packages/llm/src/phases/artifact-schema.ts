import { readFileSync } from 'node:fs';
import { OrchestraError } from '@orchestra/core';
import * as z from 'zod';
import type { LlmErrorCode } from '../errors/llm-error-codes.js';
import type { JsonSchema } from './requirement.js';

/** The schema an artifact must match: as zod (to check it) and as JSON Schema (the tool's parameters, requirement texts). */
export interface ArtifactSchema {
  readonly zod: z.ZodType;
  readonly json: JsonSchema;
  /** Where it came from, for messages: a file path, or `zod:<name>` for a registered schema. */
  readonly source: string;
}

/** An output schema that cannot be used: not JSON, not a JSON Schema zod can follow, or not an object schema. Code `ORCH_OUTPUT_SCHEMA`. */
export class ArtifactSchemaError extends OrchestraError<Extract<LlmErrorCode, 'ORCH_OUTPUT_SCHEMA'>> {
  constructor(message: string) {
    super('ORCH_OUTPUT_SCHEMA', message);
    this.name = 'ArtifactSchemaError';
  }
}

function objectRooted(json: JsonSchema, source: string): void {
  // A tool's arguments are an object: the schema's root must be one.
  const type = json.type;
  if (type !== 'object' && !(json.properties && type === undefined)) {
    throw new ArtifactSchemaError(`${source}: the output schema must describe an object (type "object"), as a tool's arguments are; it has ${type === undefined ? 'no type' : `type ${JSON.stringify(type)}`}`);
  }
}

/** An {@link ArtifactSchema} from a JSON Schema document (draft 2020-12 or 7). */
export function artifactSchemaFromJson(json: unknown, source: string): ArtifactSchema {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ArtifactSchemaError(`${source}: an output schema is a JSON object`);
  objectRooted(json as JsonSchema, source);
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(json as Parameters<typeof z.fromJSONSchema>[0]);
  } catch (error) {
    throw new ArtifactSchemaError(`${source}: not a JSON Schema orchestra can check: ${(error as Error).message}`);
  }
  return { zod: schema, json: json as JsonSchema, source };
}

/** An {@link ArtifactSchema} from a JSON Schema file (`output.schema`, relative paths already resolved). */
export function loadArtifactSchema(file: string): ArtifactSchema {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ArtifactSchemaError(`cannot read the output schema ${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ArtifactSchemaError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  return artifactSchemaFromJson(json, file);
}

/** An {@link ArtifactSchema} from a zod schema registered under `name` by a library user. */
export function artifactSchemaFromZod(schema: z.ZodType, name: string): ArtifactSchema {
  const json = z.toJSONSchema(schema, { unrepresentable: 'any' }) as JsonSchema;
  objectRooted(json, `zod:${name}`);
  return { zod: schema, json, source: `zod:${name}` };
}
