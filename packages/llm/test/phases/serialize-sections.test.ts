import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadPipeline, resumePipeline, runPipeline, type Graph } from '@orchestra/core';
import { silentReporter } from '@orchestra/core/handlers';
import { readCheckpoint } from '@orchestra/core/store';
import { reply, startScriptedOpenAIServer, toolCall, type RecordedRequest, type ScriptedOpenAIServer } from '@orchestra/testing';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig } from '../../src/config/index.js';
import { issuesBySection, outputSections, sectionSchema, sectionsOfField } from '../../src/phases/artifact-sections.js';
import { artifactSchemaFromJson, parseSemanticChecks, SerializeError, type SemanticCheck, type SemanticValidator } from '../../src/phases/index.js';
import { serializeSections, type SectionsProgress, type SerializeSectionsOptions } from '../../src/phases/serialize-sections.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeAll(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const model = () => new ChatOpenAI({ model: 'serializer', apiKey: 'k', maxRetries: 0, streamUsage: true, configuration: { baseURL: server.url } });

/** A plan in three sections: a title, the threads, the tensions between threads (a `$ref` inside, to show `$defs` travel). */
const SCHEMA_JSON = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'threads', 'tensions'],
  properties: {
    title: { type: 'string', minLength: 1 },
    threads: { type: 'array', minItems: 1, items: { $ref: '#/$defs/thread' } },
    tensions: { type: 'array', items: { type: 'object', additionalProperties: false, required: ['between'], properties: { between: { type: 'array', items: { type: 'string' } } } } },
  },
  $defs: { thread: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', pattern: '^t_' } } } },
};
const schema = artifactSchemaFromJson(SCHEMA_JSON, 'plan.schema.json');
const SECTIONS = ['title', 'threads', 'tensions'];

function checks(...declared: object[]): SemanticCheck[] {
  const parsed = parseSemanticChecks({ checks: declared }, 'plan.checks.json');
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}
const CHECKS = checks({ unique: 'threads[].id' }, { references: 'tensions[].between[]', among: '$.threads[].id' });

const TITLE = { title: 'The job' };
const THREADS = { threads: [{ id: 't_heist' }, { id: 't_betrayal' }] };
const TENSIONS = { tensions: [{ between: ['t_heist', 't_betrayal'] }] };
/** Tensions that hold even when the threads section names t_heist twice (and not t_betrayal). */
const ONE_SIDED = { tensions: [{ between: ['t_heist'] }] };

function serialize(extra: Partial<SerializeSectionsOptions> = {}) {
  const saved: SectionsProgress[] = [];
  const run = serializeSections({
    nodeId: 'plan',
    model: model(),
    modelName: 'serializer',
    sections: SECTIONS,
    system: 'You turn a brief into a structured result.',
    task: 'The task:\nPlan the heist.\n\nThe brief:\nA heist, and a betrayal.',
    rules: { schema, checks: CHECKS },
    context: {},
    signal: new AbortController().signal,
    report: silentReporter,
    onProgress: (p) => {
      saved.push(JSON.parse(JSON.stringify(p)) as SectionsProgress);
    },
    ...extra,
  });
  return { run, saved };
}

const toolOf = (r: RecordedRequest) => ((r.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
const called = () => server.completions.map((r) => toolOf(r)[0]);
const lastToolResult = (r: RecordedRequest | undefined) => JSON.parse(r?.messages?.at(-1)?.content as string) as unknown;

describe('Serialize in sections (output.sections)', () => {
  it('submits one section per call, each with its own tool and schema, the sections before it shown as fixed context', async () => {
    server.enqueue(toolCall('submit_plan_title', TITLE), toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', TENSIONS));
    const { run } = serialize();
    const result = await run;
    expect(result).toMatchObject({ artifact: { ...TITLE, ...THREADS, ...TENSIONS }, attempts: 3 });
    expect(result.usage?.totalTokens).toBeGreaterThan(0);
    expect(called()).toEqual(['submit_plan_title', 'submit_plan_threads', 'submit_plan_tensions']);
    const [first, second, third] = server.completions;
    // Only the section's tool, forced, with that one property as its parameters ($defs kept for the $ref).
    expect(second?.tools).toHaveLength(1);
    expect(second?.tools?.[0]).toMatchObject({
      function: { name: 'submit_plan_threads', parameters: { type: 'object', additionalProperties: false, required: ['threads'], properties: { threads: SCHEMA_JSON.properties.threads }, $defs: SCHEMA_JSON.$defs } },
    });
    expect(second?.toolChoice).toEqual({ type: 'function', function: { name: 'submit_plan_threads' } });
    // A fresh conversation per section: the system prompt and one message.
    expect(third?.messages?.map((m) => m.role)).toEqual(['system', 'user']);
    expect(first?.lastUserText).toContain('No section is fixed yet.');
    expect(first?.lastUserText).toContain('The task:\nPlan the heist.');
    expect(third?.lastUserText).toContain(`The sections already fixed (keep to them, and use their identifiers; do not repeat them):\n\`\`\`json\n${JSON.stringify({ ...TITLE, ...THREADS }, null, 2)}\n\`\`\``);
    expect(third?.lastUserText).toMatch(/This call is for the section "tensions" only\.[\s\S]*Call submit_plan_tensions with the tensions section\.$/);
  });

  it('a repair resends the one section at fault, not the artifact: the others stay fixed, and it gets only its own findings', async () => {
    const twice = { threads: [{ id: 't_heist' }, { id: 't_heist' }] };
    server.enqueue(
      toolCall('submit_plan_title', TITLE),
      toolCall('submit_plan_threads', twice),
      toolCall('submit_plan_tensions', ONE_SIDED),
      toolCall('submit_plan_threads', THREADS),
    );
    const { run, saved } = serialize();
    const result = await run;
    expect(result).toMatchObject({ artifact: { ...TITLE, ...THREADS, ...ONE_SIDED }, attempts: 4 });
    // Three sections, then one repair call: the threads section alone.
    expect(called()).toEqual(['submit_plan_title', 'submit_plan_threads', 'submit_plan_tensions', 'submit_plan_threads']);
    const repair = server.completions[3];
    // Every other section is fixed context, the later tensions included.
    expect(repair?.lastUserText).toContain(JSON.stringify({ ...TITLE, ...ONE_SIDED }, null, 2));
    // Its earlier value as the model's call, the findings of the whole artifact as that call's result.
    expect(repair?.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.parse(repair?.messages?.[2]?.tool_calls?.[0]?.function.arguments ?? '{}')).toEqual(twice);
    expect(lastToolResult(repair)).toEqual({
      result: 'validation_failed',
      issues: { invalid: [{ field: 'threads[1].id', provided: 't_heist', problem: 'duplicate of threads[0].id', requirement: 'unique values across threads[].id' }], missing: [], unknown: [] },
      issue_count: 1,
      action: 'Call submit_plan_threads() with corrected data.',
    });
    // The progress said which section went back, and what was accepted.
    const sentBack = saved.find((p) => p.redo);
    expect(sentBack).toMatchObject({ accepted: { ...TITLE, ...twice, ...ONE_SIDED }, failures: 1, calls: 3 });
    expect(Object.keys(sentBack?.redo ?? {})).toEqual(['threads']);
  });

  it('findings in two sections resend both, in section order; a finding that names no section resends every section', async () => {
    const tensionsAtFault = { tensions: [{ between: ['t_ghost'] }] };
    server.enqueue(
      toolCall('submit_plan_title', TITLE),
      toolCall('submit_plan_threads', { threads: [{ id: 't_heist' }, { id: 't_heist' }] }),
      toolCall('submit_plan_tensions', tensionsAtFault),
      toolCall('submit_plan_threads', THREADS),
      toolCall('submit_plan_tensions', TENSIONS),
    );
    await expect(serialize().run).resolves.toMatchObject({ attempts: 5 });
    expect(called().slice(3)).toEqual(['submit_plan_threads', 'submit_plan_tensions']);
    // The tensions' repair sees the threads as just repaired.
    expect(server.completions[4]?.lastUserText).toContain('"id": "t_betrayal"');

    server.reset();
    let judged = 0;
    const wholeOnly: SemanticValidator = () => (judged++ === 0 ? { invalid: [{ field: '$', provided: null, problem: 'too long in all', requirement: 'a shorter plan' }] } : undefined);
    server.enqueue(...[TITLE, THREADS, TENSIONS, TITLE, THREADS, TENSIONS].map((args) => toolCall(`submit_plan_${Object.keys(args)[0]}`, args)));
    await expect(serialize({ rules: { schema, checks: CHECKS, validators: [wholeOnly] } }).run).resolves.toMatchObject({ attempts: 6 });
    expect(lastToolResult(server.completions[5])).toMatchObject({ issues: { invalid: [{ field: '$', problem: 'too long in all' }] }, action: 'Call submit_plan_tensions() with corrected data.' });
  });

  it('a section that fails its own schema is retried in its conversation, with the feedback as the result', async () => {
    server.enqueue(toolCall('submit_plan_title', { title: '' }), toolCall('submit_plan_title', TITLE), toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', TENSIONS));
    await expect(serialize().run).resolves.toMatchObject({ attempts: 4 });
    const retry = server.completions[1];
    expect(retry?.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(lastToolResult(retry)).toMatchObject({ result: 'validation_failed', issues: { invalid: [{ field: 'title', problem: 'empty string not allowed' }] } });
  });

  it('every failed validation, of a section or of the whole, costs one of validation_retries; then ORCH_ARTIFACT_INVALID', async () => {
    const ghost = { tensions: [{ between: ['t_ghost'] }] };
    server.enqueue(toolCall('submit_plan_title', { title: '' }), toolCall('submit_plan_title', TITLE), toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', ghost), toolCall('submit_plan_tensions', ghost));
    const error = await serialize({ validationRetries: 2 }).run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SerializeError);
    expect(error).toMatchObject({ code: 'ORCH_ARTIFACT_INVALID', retryable: false, issues: { invalid: [{ field: 'tensions[0].between[0]', provided: 't_ghost' }] } });
    expect((error as Error).message).toBe(
      "plan: the output was still invalid after 3 failed validations in 5 calls of the section tools of submit_plan (validation_retries=2): the whole result: tensions[0].between[0]: 't_ghost' is not among $.threads[].id (one of 't_heist', 't_betrayal')",
    );
    expect(server.completions).toHaveLength(5);

    // With no retries, a section's first failed call ends it, named.
    server.reset();
    server.enqueue(toolCall('submit_plan_title', { title: '' }));
    await expect(serialize({ validationRetries: 0 }).run).rejects.toThrow('plan: the output was still invalid after 1 failed validations in 1 calls of the section tools of submit_plan (validation_retries=0): section title: title: empty string not allowed (non-empty string)');
  });

  it('a fatal finding ends it at once, no section is sent back', async () => {
    server.enqueue(toolCall('submit_plan_title', TITLE), toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', { tensions: [{ between: ['t_ghost'] }] }));
    const fatal = checks({ references: 'tensions[].between[]', among: '$.threads[].id', severity: 'fatal' });
    await expect(serialize({ rules: { schema, checks: fatal } }).run).rejects.toMatchObject({ code: 'ORCH_ARTIFACT_FATAL', message: expect.stringContaining("plan: the output failed a fatal check (1 issue): tensions[0].between[0]: 't_ghost'") });
    expect(server.completions).toHaveLength(3);
  });

  it('resumes from its progress: accepted sections are not asked again, a section sent back is redone with its findings and failed calls replayed', async () => {
    const progress: SectionsProgress = {
      accepted: { ...TITLE, threads: [{ id: 't_heist' }, { id: 't_heist' }] },
      redo: { threads: { result: 'validation_failed', issues: { invalid: [{ field: 'threads[1].id', provided: 't_heist', problem: 'duplicate of threads[0].id', requirement: 'unique values across threads[].id' }], missing: [], unknown: [] }, issue_count: 1, action: 'Call submit_plan_threads() with corrected data.' } },
      current: { section: 'threads', calls: [{ args: { threads: [] }, feedback: { result: 'validation_failed', issues: { invalid: [{ field: 'threads', provided: [], problem: 'empty array not allowed', requirement: 'array' }], missing: [], unknown: [] }, issue_count: 1, action: 'Call submit_plan_threads() with corrected data.' } }] },
      failures: 2,
      calls: 3,
    };
    server.enqueue(toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', TENSIONS));
    await expect(serialize({ progress }).run).resolves.toMatchObject({ artifact: { ...TITLE, ...THREADS, ...TENSIONS }, attempts: 5 });
    expect(called()).toEqual(['submit_plan_threads', 'submit_plan_tensions']);
    expect(server.completions[0]?.messages?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    // The budget went on from the progress: one failure left of 3, so a failed tensions call would end it.
    server.reset();
    server.enqueue(toolCall('submit_plan_threads', THREADS), toolCall('submit_plan_tensions', { tensions: 'none' }));
    await expect(serialize({ progress: { ...progress, failures: 3 } }).run).rejects.toMatchObject({ code: 'ORCH_ARTIFACT_INVALID' });
  });
});

describe('declaring sections and sorting findings into them', () => {
  it('output.sections names every top-level property once, each fit for a tool name', () => {
    expect(outputSections(' title, threads ,tensions ', schema, 'submit_plan', 'plan')).toEqual(['title', 'threads', 'tensions']);
    expect(outputSections(undefined, schema, 'submit_plan', 'plan')).toBeUndefined();
    expect(outputSections(' ', schema, 'submit_plan', 'plan')).toBeUndefined();
    expect(() => outputSections('title, threads, tension', schema, 'submit_plan', 'plan')).toThrow('node plan: output.sections names "tension", which is no top-level property of plan.schema.json (it has "title", "threads", "tensions")');
    expect(() => outputSections('title, threads', schema, 'submit_plan', 'plan')).toThrow('node plan: output.sections leaves out "tensions": every top-level property of plan.schema.json belongs to a section');
    expect(() => outputSections('title, title, threads, tensions', schema, 'submit_plan', 'plan')).toThrow('node plan: output.sections names "title" twice');
    const odd = artifactSchemaFromJson({ type: 'object', properties: { 'the title': { type: 'string' } } }, 'odd.json');
    expect(() => outputSections('the title', odd, 'submit_plan', 'plan')).toThrow('letters, digits, _ and - only');
    expect(() => outputSections('title, threads, tensions', schema, `submit_${'x'.repeat(60)}`, 'plan')).toThrow('is longer than 64 characters');
    expect(() => outputSections('title, threads, tensions', schema, 'submit_plan', 'plan')).not.toThrow();
  });

  it('a section schema checks that one property as the output schema does', () => {
    const threads = sectionSchema(schema, 'threads');
    expect(threads.source).toBe('plan.schema.json#/properties/threads');
    expect(threads.zod.safeParse(THREADS).success).toBe(true);
    expect(threads.zod.safeParse({ threads: [{ id: 'nope' }] }).success).toBe(false); // the $ref'd pattern
    expect(threads.zod.safeParse({ ...THREADS, title: 'x' }).success).toBe(false); // other sections are not its business
  });

  it('a finding belongs to the section its field starts in; a covers over several paths to each; `$` to none', () => {
    expect(sectionsOfField('tensions[0].between[1]', SECTIONS)).toEqual(['tensions']);
    expect(sectionsOfField('threads[]', SECTIONS)).toEqual(['threads']);
    expect(sectionsOfField('$.title', SECTIONS)).toEqual(['title']);
    expect(sectionsOfField('tensions[].between[] | title', SECTIONS)).toEqual(['title', 'tensions']);
    expect(sectionsOfField('$', SECTIONS)).toEqual([]);
    const by = issuesBySection({ invalid: [{ field: 'tensions[0].between[0]', provided: 'x', problem: 'p', requirement: 'r' }], missing: [{ field: 'title', requirement: 'r' }], unknown: ['extra'] }, SECTIONS);
    expect([...by.keys()]).toEqual(['title', 'threads', 'tensions']);
    expect(by.get('threads')).toEqual({ invalid: [], missing: [], unknown: ['extra'] });
    expect(by.get('tensions')?.invalid).toHaveLength(1);
  });
});

describe('a phased node with output.sections', () => {
  /** A pipeline with one phased node `plan` in three sections, its schema and checks beside it. */
  function pipeline(sections = 'title, threads, tensions'): { file: string; graph: Graph; source: string } {
    const dir = tempDir();
    writeFileSync(join(dir, 'plan.schema.json'), JSON.stringify(SCHEMA_JSON));
    writeFileSync(join(dir, 'plan.checks.json'), JSON.stringify({ checks: [{ unique: 'threads[].id' }, { references: 'tensions[].between[]', among: '$.threads[].id' }] }));
    const source = `digraph Heist {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Plan the heist", output.schema="plan.schema.json", output.checks="plan.checks.json", output.sections="${sections}"]
  start -> plan -> exit
}`;
    const file = join(dir, 'heist.dot');
    writeFileSync(file, source);
    const loaded = loadPipeline(source, { file });
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    return { file, graph: loaded.graph as Graph, source };
  }
  const backend = () => createModelBackend({ config: emptyConfig(tempDir()), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' }, flags: { model: 'planner' } });

  it('runs Serialize section by section, keeps its progress in the checkpoint, and a resumed node asks only for what is left', async () => {
    const { file, graph, source } = pipeline();
    const stop = new AbortController();
    server.enqueue(toolCall('ready_to_summarize', {}), reply('Brief: The job; t_heist and t_betrayal at odds.'), toolCall('submit_plan_title', TITLE), toolCall('submit_plan_threads', { threads: [{ id: 't_heist' }, { id: 't_heist' }] }), toolCall('submit_plan_tensions', ONE_SIDED));
    // The repair of the threads section: the run is stopped while the model "thinks".
    server.respondWith(() => {
      setTimeout(() => stop.abort(), 20);
      return toolCall('submit_plan_threads', THREADS, { delayMs: 5000 });
    });
    const logsRoot = join(tempDir(), 'run');
    const first = await runPipeline(graph, { backend: backend(), logsRoot, source, sourceFile: file, signal: stop.signal });
    expect(first.status).toBe('interrupted');
    expect(called().slice(2)).toEqual(['submit_plan_title', 'submit_plan_threads', 'submit_plan_tensions', 'submit_plan_threads']);
    const progress = readCheckpoint(logsRoot).node_progress?.plan as unknown as { sections: SectionsProgress };
    expect(progress.sections).toMatchObject({ accepted: { ...TITLE, ...ONE_SIDED }, failures: 1, calls: 3 });
    expect(Object.keys(progress.sections.redo ?? {})).toEqual(['threads']);

    server.reset();
    server.enqueue(toolCall('submit_plan_threads', THREADS));
    const resumed = await resumePipeline(logsRoot, { backend: backend() });
    expect(resumed.status).toBe('success');
    expect(resumed.context['plan.output']).toEqual({ ...TITLE, ...THREADS, ...ONE_SIDED });
    expect(called()).toEqual(['submit_plan_threads']); // the one section still at fault, nothing else
    expect(lastToolResult(server.completions[0])).toMatchObject({ issues: { invalid: [{ field: 'threads[1].id' }] } });
    const phases = JSON.parse(readFileSync(join(logsRoot, 'plan', 'phases.json'), 'utf8'));
    expect(phases).toMatchObject({ attempts: 4, cost: { serialize: { calls: 4 } } });
  });

  it('refuses an output.sections that leaves out a property before any model call', async () => {
    const { file, graph, source } = pipeline('title, threads');
    const result = await runPipeline(graph, { backend: backend(), logsRoot: join(tempDir(), 'run'), source, sourceFile: file });
    expect(result.status).toBe('fail');
    expect(JSON.stringify(result)).toContain('node plan: output.sections leaves out \\"tensions\\"');
    expect(server.completions).toHaveLength(0);
  });
});
