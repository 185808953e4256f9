import { OrchestraError, isOrchestraError } from '@orchestra/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AgentTurnLimitError,
  CliAgentError,
  CliAgentTimeoutError,
  ConfigError,
  LlmProviderError,
  ModelConfigError,
  ProcessStartError,
  type LlmErrorCode,
} from '../../src/index.js';
import { ArtifactSchemaError, SerializeError } from '../../src/phases/index.js';
import { ToolRefusal } from '../../src/agent.js';

/** One of each error class @orchestra/llm throws, with the code and name it must keep. */
const cases: { error: Error; code: LlmErrorCode; name: string; type: new (...args: never[]) => Error }[] = [
  { error: new AgentTurnLimitError('plan', 3), code: 'ORCH_AGENT_TURNS', name: 'AgentTurnLimitError', type: AgentTurnLimitError },
  { error: new ArtifactSchemaError('plan.json: an output schema is a JSON object'), code: 'ORCH_OUTPUT_SCHEMA', name: 'ArtifactSchemaError', type: ArtifactSchemaError },
  { error: new SerializeError('ORCH_ARTIFACT_FATAL', 'plan: fatal'), code: 'ORCH_ARTIFACT_FATAL', name: 'SerializeError', type: SerializeError },
  { error: new LlmProviderError('ORCH_LLM_AUTH', 'refused', { retryable: false }), code: 'ORCH_LLM_AUTH', name: 'LlmProviderError', type: LlmProviderError },
  { error: new ModelConfigError('ORCH_NO_MODEL', 'plan', 'no model'), code: 'ORCH_NO_MODEL', name: 'ModelConfigError', type: ModelConfigError },
  { error: new ConfigError({ file: '/p/orchestra.yaml', line: 1, column: 1 }, [], 'not YAML'), code: 'ORCH_CONFIG', name: 'ConfigError', type: ConfigError },
  { error: new ToolRefusal('outside the workspace'), code: 'ORCH_TOOL_REFUSED', name: 'ToolRefusal', type: ToolRefusal },
  { error: new CliAgentError('exited with code 2'), code: 'ORCH_CLI_AGENT', name: 'CliAgentError', type: CliAgentError },
  { error: new CliAgentTimeoutError('"claude -p"', 1000), code: 'ORCH_CLI_AGENT_TIMEOUT', name: 'TimeoutError', type: CliAgentTimeoutError },
  { error: new ProcessStartError('nope', '/', Object.assign(new Error('spawn nope ENOENT'), { code: 'ENOENT' })), code: 'ORCH_PROCESS_START', name: 'ProcessStartError', type: ProcessStartError },
];

describe('the errors of @orchestra/llm', () => {
  it.each(cases.map((c) => [c.name === 'TimeoutError' ? 'CliAgentTimeoutError' : c.name, c] as const))('%s is an OrchestraError with its code, and keeps its name and class', (_, { error, code, name, type }) => {
    expect(isOrchestraError(error, code)).toBe(true);
    expect(error).toBeInstanceOf(OrchestraError);
    expect(error).toBeInstanceOf(type);
    expect(error.name).toBe(name);
  });

  it('keeps the fields and messages the converted classes had', () => {
    const turns = new AgentTurnLimitError('plan', 3);
    expect(turns.retryable).toBe(false);
    expect(turns.message).toBe('agent stage plan made 3 model calls (agent.max_turns) and was still calling tools; raise agent.max_turns or simplify the task');
    const issues = { invalid: [], missing: [] } as unknown as ConstructorParameters<typeof SerializeError>[2];
    const serialize = new SerializeError('ORCH_ARTIFACT_INVALID', 'plan: still invalid', issues);
    expect(serialize).toMatchObject({ code: 'ORCH_ARTIFACT_INVALID', retryable: false, issues, message: 'plan: still invalid' });
  });

  it('types each class code with the package union', () => {
    expectTypeOf<AgentTurnLimitError['code']>().toEqualTypeOf<'ORCH_AGENT_TURNS'>();
    expectTypeOf<ArtifactSchemaError['code']>().toEqualTypeOf<'ORCH_OUTPUT_SCHEMA'>();
    expectTypeOf<SerializeError['code']>().toEqualTypeOf<'ORCH_SERIALIZE_NO_TOOL_CALL' | 'ORCH_ARTIFACT_INVALID' | 'ORCH_ARTIFACT_FATAL' | 'ORCH_ARTIFACT_CHECK'>();
    expectTypeOf<ModelConfigError['code']>().toEqualTypeOf<'ORCH_NO_MODEL' | 'ORCH_NO_PROVIDER' | 'ORCH_NO_API_KEY' | 'ORCH_BAD_ATTRIBUTE' | 'ORCH_BAD_URL' | 'ORCH_UNKNOWN_ROLE'>();
    // The constructors take those codes only (not any string).
    expectTypeOf<ConstructorParameters<typeof SerializeError>[0]>().toEqualTypeOf<SerializeError['code']>();
    expectTypeOf<ConstructorParameters<typeof ModelConfigError>[0]>().toEqualTypeOf<ModelConfigError['code']>();
    expectTypeOf<ConstructorParameters<typeof LlmProviderError>[0]>().toEqualTypeOf<LlmProviderError['code']>();
  });
});
