import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline, loadPipelineFile, resumePipeline, runPipeline, type Graph } from '@orchestra/core';
import { readCheckpoint } from '@orchestra/core/store';
import { reply, startScriptedOpenAIServer, toolCall, type ScriptedOpenAIServer } from '@orchestra/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createModelBackend } from '../../src/backends/model-backend.js';
import { emptyConfig } from '../../src/config/index.js';
import { DIRECT_MODE_INSTRUCTIONS, READY_TOOL, SUMMARIZE_INSTRUCTION } from '../../src/phases/index.js';
import { tempDir, useTempDirs } from '../helpers.js';

useTempDirs();

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['title', 'threads'],
  properties: { title: { type: 'string', minLength: 1 }, threads: { type: 'array', minItems: 1, items: { type: 'string' } } },
};

/** A pipeline file with one phased node `plan`, its schema and checks beside it. */
function pipeline(attrs = ''): { file: string; graph: Graph; source: string } {
  const dir = tempDir();
  writeFileSync(join(dir, 'plan.schema.json'), JSON.stringify(SCHEMA));
  writeFileSync(join(dir, 'plan.checks.json'), JSON.stringify({ checks: [{ references: 'threads[]', among: 'design.output.threads[].id' }] }));
  const source = `digraph Heist {
  start [shape=Mdiamond]
  exit [shape=Msquare]
  plan [prompt="Plan the heist", output.schema="plan.schema.json", output.checks="plan.checks.json"${attrs}]
  start -> plan -> exit
}`;
  const file = join(dir, 'heist.dot');
  writeFileSync(file, source);
  const loaded = loadPipeline(source, { file });
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return { file, graph: loaded.graph as Graph, source };
}

const backend = () => createModelBackend({ config: emptyConfig(tempDir()), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' }, flags: { model: 'planner' } });
const initialContext = { 'design.output': { threads: [{ id: 't_heist' }, { id: 't_betrayal' }] } };

describe('phased LLM stage (direct mode): Discuss → Summarize → Serialize', () => {
  it('runs the three phases with what each may use, and puts the validated artifact in the context and output.json', async () => {
    const { file, graph } = pipeline();
    server.enqueue(
      toolCall(READY_TOOL, {}),
      reply('Brief: the title is "The job"; it follows the thread t_heist.'),
      toolCall('submit_plan', { title: 'The job', threads: ['t_phantom'] }),
      toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }),
    );
    const logsRoot = join(tempDir(), 'run');
    const result = await runPipeline(graph, { backend: backend(), logsRoot, sourceFile: file, initialContext });
    expect(result.status).toBe('success');
    expect(result.context['plan.output']).toEqual({ title: 'The job', threads: ['t_heist'] });
    expect(JSON.parse(readFileSync(join(logsRoot, 'plan', 'output.json'), 'utf8'))).toEqual({ title: 'The job', threads: ['t_heist'] });
    expect(readFileSync(join(logsRoot, 'plan', 'summary.md'), 'utf8')).toBe('Brief: the title is "The job"; it follows the thread t_heist.\n');
    expect(JSON.parse(readFileSync(join(logsRoot, 'plan', 'phases.json'), 'utf8'))).toMatchObject({ mode: 'direct', attempts: 2, cost: { discuss: { calls: 1 }, summarize: { calls: 1 }, serialize: { calls: 2 } } });

    const [discuss, summarize, serialize1, serialize2] = server.completions;
    // Discuss: the mode instructions first, the reminder last; the ready tool offered.
    expect(discuss?.messages?.[0]).toMatchObject({ role: 'system', content: DIRECT_MODE_INSTRUCTIONS });
    expect(discuss?.lastUserText).toMatch(/^Plan the heist\n\n\(Direct mode: .*\)$/);
    expect((discuss?.tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([READY_TOOL]);
    // Summarize: no tools; the real messages, the tool call and its result included.
    expect(summarize?.tools).toBeUndefined();
    expect(summarize?.messages?.map((m) => m.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool', 'user']);
    expect(summarize?.messages?.[3]).toMatchObject({ tool_calls: [{ function: { name: READY_TOOL } }] });
    expect(summarize?.lastUserText).toBe(SUMMARIZE_INSTRUCTION);
    // Serialize: only the finalization tool, forced; the brief; the feedback of the first call.
    expect(serialize1?.toolChoice).toEqual({ type: 'function', function: { name: 'submit_plan' } });
    expect(serialize1?.lastUserText).toContain('The brief:\nBrief: the title is "The job"');
    expect(JSON.parse(serialize2?.messages?.at(-1)?.content as string)).toMatchObject({ result: 'validation_failed', issues: { invalid: [{ field: 'threads[0]', provided: 't_phantom' }] } });
  });

  it('uses the per-phase models (summarize.llm_model), and output.key names the context key', async () => {
    const { file, graph } = pipeline(', llm_model="planner", summarize.llm_model="summarizer", output.key="heist_plan"');
    server.enqueue(reply('Done thinking.'), reply('Brief.'), toolCall('submit_plan', { title: 'T', threads: ['t_betrayal'] }));
    // No --model: it would name the model of every stage, phases included.
    const unflagged = createModelBackend({ config: emptyConfig(tempDir()), env: { OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' } });
    const result = await runPipeline(graph, { backend: unflagged, logsRoot: join(tempDir(), 'run'), sourceFile: file, initialContext });
    expect(result.status).toBe('success');
    expect(result.context.heist_plan).toEqual({ title: 'T', threads: ['t_betrayal'] });
    expect(server.completions.map((r) => r.model)).toEqual(['planner', 'summarizer', 'planner']);
  });

  it('fails the node, without a retry, when Serialize gets text instead of the tool call', async () => {
    const { file, graph } = pipeline(', max_retries=2');
    server.enqueue(reply('Thinking done.'), reply('Brief.'), reply('{"title": "T"}'));
    const result = await runPipeline(graph, { backend: backend(), logsRoot: join(tempDir(), 'run'), sourceFile: file, initialContext });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toMatch(/plan: the model answered without calling submit_plan/);
    expect(server.completions).toHaveLength(3); // not retried
  });

  it('fails the node, saying which file, when the schema file is missing', async () => {
    const { graph } = pipeline();
    const elsewhere = join(tempDir(), 'moved.dot');
    const result = await runPipeline(graph, { backend: backend(), logsRoot: join(tempDir(), 'run'), sourceFile: elsewhere, initialContext });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain(`cannot read the output schema ${join(elsewhere, '..', 'plan.schema.json')}: no such file`);
    expect(server.completions).toHaveLength(0);
  });

  it('resumes where it stopped: a run stopped during Serialize repeats neither Discuss, Summarize nor the calls already judged', async () => {
    const { file, graph, source } = pipeline();
    const stop = new AbortController();
    server.enqueue(toolCall(READY_TOOL, {}), reply('Brief: The job, t_heist.'), toolCall('submit_plan', { title: '', threads: ['t_heist'] }));
    // The second serialize call: the run is stopped while the model "thinks".
    server.respondWith(() => {
      setTimeout(() => stop.abort(), 20);
      return toolCall('submit_plan', { title: 'too late', threads: ['t_heist'] }, { delayMs: 5000 });
    });
    const logsRoot = join(tempDir(), 'run');
    const first = await runPipeline(graph, { backend: backend(), logsRoot, source, sourceFile: file, initialContext, signal: stop.signal });
    expect(first.status).toBe('interrupted');
    expect(server.completions).toHaveLength(4);
    // The checkpoint holds the summary and the judged call, not the discussion.
    const progress = readCheckpoint(logsRoot).node_progress?.plan as { summary: string; attempts: unknown[]; discuss?: unknown };
    expect(progress.summary).toBe('Brief: The job, t_heist.');
    expect(progress.attempts).toHaveLength(1);
    expect(progress.discuss).toBeUndefined();

    server.reset();
    server.enqueue(toolCall('submit_plan', { title: 'The job', threads: ['t_heist'] }));
    const resumed = await resumePipeline(logsRoot, { backend: backend() });
    expect(resumed.status).toBe('success');
    expect(resumed.context['plan.output']).toEqual({ title: 'The job', threads: ['t_heist'] });
    expect(server.completions).toHaveLength(1); // only the serialize call still to make
    const messages = server.completions[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']); // the judged call replayed with its feedback
    expect(JSON.parse(messages[3]?.content as string)).toMatchObject({ result: 'validation_failed', issues: { invalid: [{ field: 'title' }] } });
  });
});

describe('validate checks a phased node\'s files (rule output_files)', () => {
  it('reports a missing schema, checks that are not JSON and a schema of an array, with the node and the path', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'list.json'), JSON.stringify({ type: 'array' }));
    writeFileSync(join(dir, 'bad.checks.json'), '{ checks: ');
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(SCHEMA));
    const file = join(dir, 'p.dot');
    writeFileSync(
      file,
      `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="a", output.schema="missing.json"]\n  b [prompt="b", output.schema="list.json"]\n  c [prompt="c", output.schema="ok.json", output.checks="bad.checks.json"]\n  d [prompt="d", output.schema="zod:registered"]\n  start -> a -> b -> c -> d -> exit\n}\n`,
    );
    const loaded = await loadPipelineFile(file);
    expect(loaded.ok).toBe(false);
    expect(loaded.diagnostics.filter((d) => d.rule === 'output_files').map((d) => [d.nodeId, d.message, d.location?.line])).toEqual([
      ['a', `node a: output.schema missing.json (${join(dir, 'missing.json')}) does not exist`, 4],
      ['b', 'node b: output.schema list.json must describe an object (type "object"), as a tool\'s arguments are', 5],
      ['c', expect.stringMatching(/^node c: output\.checks bad\.checks\.json \(.*\) is not valid JSON: /), 6],
    ]);
  });

  it('reports output.sections that name a property the schema lacks, name one twice or leave one out, at the attribute', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'ok.json'), JSON.stringify(SCHEMA));
    const file = join(dir, 'p.dot');
    writeFileSync(
      file,
      `digraph P {\n  start [shape=Mdiamond]\n  exit [shape=Msquare]\n  a [prompt="a", output.schema="ok.json", output.sections="title, plot"]\n  b [prompt="b", output.schema="ok.json", output.sections="title, threads, title"]\n  c [prompt="c", output.schema="ok.json", output.sections="threads"]\n  d [prompt="d", output.schema="ok.json", output.sections="threads, title"]\n  start -> a -> b -> c -> d -> exit\n}\n`,
    );
    const loaded = await loadPipelineFile(file);
    expect(loaded.diagnostics.filter((d) => d.rule === 'output_files').map((d) => [d.nodeId, d.message, d.location?.line, d.location?.column])).toEqual([
      ['a', 'node a: output.sections names "plot", which is no top-level property of ok.json (it has "title", "threads")', 4, 43],
      ['b', 'node b: output.sections names "title" twice', 5, 43],
      ['c', 'node c: output.sections leaves out "title": every top-level property of ok.json belongs to a section', 6, 43],
    ]);
  });
});
