import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { silentReporter } from '@orchestra/core/handlers';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { artifactSchemaFromJson, parseSemanticChecks, serializeArtifact, SerializeError, type SemanticCheck, type SerializeAttempt } from '../../src/phases/index.js';

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = () => new ChatOpenAI({ model: 'serializer', apiKey: 'k', maxRetries: 0, streamUsage: true, configuration: { baseURL: server.url } });

const SCHEMA_JSON = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['title', 'threads'],
  properties: {
    title: { type: 'string', minLength: 1 },
    threads: { type: 'array', minItems: 1, items: { type: 'string' } },
  },
};
const schema = artifactSchemaFromJson(SCHEMA_JSON, 'plan.schema.json');
const CONTEXT = { 'design.output': { threads: [{ id: 't_heist' }, { id: 't_betrayal' }] } };

function checks(...declared: object[]): SemanticCheck[] {
  const parsed = parseSemanticChecks({ checks: declared }, 'plan.checks.json');
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

function conversation(): BaseMessage[] {
  return [new SystemMessage('You turn the summary into the plan artifact.'), new HumanMessage('Summary: a heist, and a betrayal.')];
}

async function serialize(extra: Partial<Parameters<typeof serializeArtifact>[0]> = {}) {
  const attempts: SerializeAttempt[] = [];
  const messages = conversation();
  const run = serializeArtifact({
    nodeId: 'plan',
    model: model(),
    modelName: 'serializer',
    messages,
    rules: { schema, checks: checks({ references: 'threads[]', among: 'design.output.threads[].id' }) },
    context: CONTEXT,
    signal: new AbortController().signal,
    report: silentReporter,
    onAttempt: (a) => {
      attempts.push(a);
    },
    ...extra,
  });
  return { run, attempts, messages };
}

describe('Serialize: the finalization tool and the validation-retry loop', () => {
  it('takes nothing from a call cut off at the output token limit, though its JSON was completed, and asks again', async () => {
    // The cut arguments would pass the schema once LangChain closes them: "The jo" is a title, t_heist a thread.
    server.enqueue(toolCall('submit_plan', '{"title":"The jo","threads":["t_heist"', { finishReason: 'length' }), toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const { run, attempts } = await serialize();
    await expect(run).resolves.toMatchObject({ artifact: { title: 'The job' }, attempts: 2 });
    expect(attempts[0]?.outcome).toMatchObject({ result: 'tool_error', issues: { invalid: [{ problem: expect.stringContaining('output token limit') }] } });
    expect(JSON.stringify(server.completions[1]?.messages)).toContain('output token limit');
  });

  it('offers only submit_<node>, forced by tool_choice, with the output schema as its parameters', async () => {
    server.enqueue(toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const { run } = await serialize();
    await expect(run).resolves.toMatchObject({ artifact: { title: 'The job', threads: ['t_heist'] }, attempts: 1 });
    const [request] = server.completions;
    expect(request?.tools).toHaveLength(1);
    const { $schema: _dialect, ...parameters } = SCHEMA_JSON;
    expect(request?.tools?.[0]).toMatchObject({ type: 'function', function: { name: 'submit_plan', parameters } });
    expect(request?.toolChoice).toEqual({ type: 'function', function: { name: 'submit_plan' } });
  });

  it('sends the feedback document back as the tool result and takes the corrected call', async () => {
    server.enqueue(toolCall('submit_plan', { title: '', threads: ['t_heist', 't_phantom'], extra: 1 }), toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const { run, attempts } = await serialize();
    const result = await run;
    expect(result).toMatchObject({ artifact: { title: 'The job', threads: ['t_heist'] }, attempts: 2 });
    expect(result.usage?.totalTokens).toBeGreaterThan(0);
    // The schema failed first (semantic checks only read a well-formed artifact).
    const feedback = {
      result: 'validation_failed',
      issues: { invalid: [{ field: 'title', provided: '', problem: 'empty string not allowed', requirement: 'non-empty string' }], missing: [], unknown: ['extra'] },
      issue_count: 2,
      action: 'Call submit_plan() with corrected data. Unknown fields may be typos.',
    };
    const second = server.completions[1]?.messages ?? [];
    expect(second.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(second[3]?.content).toBe(JSON.stringify(feedback));
    expect(attempts.map((a) => a.outcome)).toEqual([feedback, 'accepted']);
  });

  it('retries semantic findings too, listing the valid values', async () => {
    server.enqueue(toolCall('submit_plan', { title: 'The job', threads: ['t_phantom'] }), toolCall('submit_plan', { title: 'The job', threads: ['t_betrayal'] }));
    const { run } = await serialize();
    await expect(run).resolves.toMatchObject({ attempts: 2, artifact: { threads: ['t_betrayal'] } });
    const sent = JSON.parse(server.completions[1]?.messages?.at(-1)?.content as string);
    expect(sent.issues.invalid).toEqual([{ field: 'threads[0]', provided: 't_phantom', problem: "'t_phantom' is not among design.output.threads[].id", requirement: "one of 't_heist', 't_betrayal'" }]);
  });

  it('stops after validation_retries more calls, with the last findings', async () => {
    const bad = () => toolCall('submit_plan', { title: 'The job', threads: [] });
    server.enqueue(bad(), bad(), bad(), toolCall('submit_plan', { title: 'never asked for', threads: ['t_heist'] }));
    const { run } = await serialize({ validationRetries: 2 });
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerializeError);
    expect(error).toMatchObject({ code: 'ORCH_ARTIFACT_INVALID', retryable: false });
    expect((error as Error).message).toBe('plan: the output was still invalid after 3 calls of submit_plan (validation_retries=2): threads: empty array not allowed (array of string, at least 1 item)');
    expect(server.completions).toHaveLength(3);
  });

  it('stops at once on a fatal finding: no feedback, no second call', async () => {
    server.enqueue(toolCall('submit_plan', { title: 'The job', threads: ['t_phantom'] }), toolCall('submit_plan', { title: 'unused', threads: ['t_heist'] }));
    const { run, attempts } = await serialize({ rules: { schema, checks: checks({ references: 'threads[]', among: 'design.output.threads[].id', severity: 'fatal' }) } });
    await expect(run).rejects.toMatchObject({ code: 'ORCH_ARTIFACT_FATAL', message: "plan: the output failed a fatal check (1 issue): threads[0]: 't_phantom' is not among design.output.threads[].id (one of 't_heist', 't_betrayal')" });
    expect(server.completions).toHaveLength(1);
    expect(attempts).toHaveLength(1);
  });

  it('fails the node when the model writes text instead of calling the tool: no text fallback', async () => {
    server.enqueue(reply('{"title": "The job", "threads": ["t_heist"]}'));
    const { run } = await serialize();
    await expect(run).rejects.toMatchObject({
      code: 'ORCH_SERIALIZE_NO_TOOL_CALL',
      message: 'plan: the model answered without calling submit_plan (it wrote: "{\\"title\\": \\"The job\\", \\"threads\\": [\\"t_heist\\"]}"); an artifact is taken only from that tool call, never from text',
    });
  });

  it('answers arguments that are not JSON with a tool_error document, then takes the retry', async () => {
    server.enqueue(toolCall('submit_plan', '{"title": "The job", threads: }'), toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const { run, attempts } = await serialize();
    await expect(run).resolves.toMatchObject({ attempts: 2 });
    const sent = JSON.parse(server.completions[1]?.messages?.at(-1)?.content as string);
    expect(sent.result).toBe('tool_error');
    expect(sent.issues.invalid[0].problem).toMatch(/^the arguments are not a JSON object/);
    expect(attempts[0]?.args).toBe('{"title": "The job", threads: }');
  });

  it('keeps the whole exchange in the messages it was given', async () => {
    server.enqueue(toolCall('submit_plan', { title: '', threads: ['t_heist'] }), toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const { run, messages } = await serialize();
    await run;
    expect(messages.map((m) => m.getType())).toEqual(['system', 'human', 'ai', 'tool', 'ai', 'tool']);
    expect(messages.at(-1)?.content).toBe('{"result":"accepted"}');
  });
});
