import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueueInterviewer, createDefaultRegistry, runPipeline, simulationBackend, type CodergenBackend, type RunEvent } from '@orchestra/core';
import type { ConferenceBackend, RoleCallRequest } from '@orchestra/core/handlers';
import { describe, expect, it } from 'vitest';
import { createRecipeHandlers, openProject, prepareRecipe, recipeChange, RecipeError, type RecipeTool } from '../../src/index.js';
import { project, tempDir } from '../helpers.js';

const ORCHESTRA_YAML = [
  'roles:',
  '  planner: { contract: "You are the planner.", tier: T3 }',
  '  writer: { contract: "You are the writer.", tier: T5 }',
  '  checker: { contract: "You are the checker.", tier: T1 }',
].join('\n');

const RECIPE = `recipe_id: demo
phase_a:
  steps:
    - tool: count_words
      args: { text: $TASK_DESCRIPTION, file: notes.md }
      outputs: [counts]
    - tool: first_item
      args: { list: $counts.words }
      outputs: [first]
phase_b:
  pipeline:
    - agent: planner
      input: [counts, first]
      output: brief
      prompt_type: plan
    - agent: writer
      input: [brief]
      output: draft
      prompt_type: write
    - agent: checker
      input: [draft]
      output: report
      prompt_type: check
dod:
  - draft_exists: "$draft != null"
  - report_pass: "$report.pass == true"
  - notes_file_exists: "$counts.file"
`;

const countWords: RecipeTool = {
  name: 'count_words',
  description: 'counts the words of a text and names a file',
  run: (args) => {
    const words = String(args.text).split(/\s+/).filter(Boolean);
    return { data: { words, count: words.length, file: args.file as string }, summary: `${words.length} words` };
  },
};
const firstItem: RecipeTool = { name: 'first_item', description: 'the first item of a list', run: (args) => ({ data: (args.list as string[])[0] ?? null, summary: `first: ${(args.list as string[])[0]}` }) };
const TOOLS = [countWords, firstItem];

function demoProject(extra: Record<string, string> = {}): string {
  return project({
    'orchestra.yaml': ORCHESTRA_YAML,
    'notes.md': 'notes\n',
    'recipes/demo.yaml': RECIPE,
    'recipes/templates/plan.md': 'Plan for: {{task}}\n{{inputs}}',
    'recipes/templates/write.md': 'Write from: {{input.brief}}',
    'recipes/templates/write.t5.md': 'T5 writer. Task: {{task}}. Brief data: {{data.brief}}',
    'recipes/templates/check.md': 'Check {{input.draft}} and answer in JSON with a field pass.',
    ...extra,
  });
}

/** A backend whose role calls are scripted by role; the prompts are recorded. */
function scripted(answer: (request: RoleCallRequest) => string | Promise<string>) {
  const calls: RoleCallRequest[] = [];
  const conference: ConferenceBackend = {
    ...(simulationBackend.conference as ConferenceBackend),
    roles: (names) => names.map((name) => ({ name, contract: `You are the ${name}.`, evidence: 'any' as const, tier: name === 'writer' ? ('T5' as const) : ('T3' as const) })),
    async askRole(request) {
      calls.push(request);
      return { text: await answer(request), model: 'scripted' };
    },
  };
  const backend: CodergenBackend = { run: async () => 'unused', conference };
  return { backend, calls };
}

async function runRecipe(dir: string, backend: CodergenBackend, options: { interviewer?: QueueInterviewer; logsRoot?: string; context?: Record<string, unknown> } = {}) {
  const prepared = prepareRecipe(openProject(dir, { home: tempDir(), env: {} }), 'demo', 'alpha beta gamma', TOOLS);
  const interviewer = options.interviewer ?? new QueueInterviewer([]);
  const registry = createDefaultRegistry({ backend, interviewer });
  for (const [type, handler] of Object.entries(createRecipeHandlers({ backend, tools: TOOLS }))) registry.register(type, handler);
  const logsRoot = options.logsRoot ?? join(tempDir(), 'run');
  const events: RunEvent[] = [];
  const result = await runPipeline(prepared.graph, { registry, logsRoot, source: prepared.compiled.dot, interviewer, onEvent: (e) => events.push(e), ...(options.context ? { initialContext: options.context } : {}) });
  return { result, logsRoot, events, prepared };
}

describe('a recipe run', () => {
  it('runs the tools with no model, then each agent on its template and slots only, then the Definition of Done', async () => {
    const { backend, calls } = scripted((r) => (r.role.name === 'checker' ? '{"pass": true, "notes": "fine"}' : `${r.role.name} output`));
    const { result, logsRoot } = await runRecipe(demoProject(), backend);
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'a1_count_words', 'a2_first_item', 'b1_planner', 'b2_writer', 'b3_checker', 'dod', 'exit']);
    // Phase A: receipts and slots.
    const receipt = JSON.parse(readFileSync(join(logsRoot, 'a1_count_words', 'receipts.jsonl'), 'utf8').trim()) as { receipt_id: string; arguments: unknown; payload: string };
    expect(receipt.arguments).toEqual({ text: 'alpha beta gamma', file: 'notes.md' });
    expect(JSON.parse(receipt.payload)).toEqual({ words: ['alpha', 'beta', 'gamma'], count: 3, file: 'notes.md' });
    expect(result.context['slots.counts']).toEqual({ data: { words: ['alpha', 'beta', 'gamma'], count: 3, file: 'notes.md' }, receipt_id: receipt.receipt_id, summary: '3 words', agent_id: null });
    expect(result.context['slots.first']).toMatchObject({ data: 'alpha', summary: 'first: alpha' });
    // Phase B: the prompts are the templates with the task and the input slots, nothing else; the T5 writer got its tier's template.
    expect(calls.map((c) => [c.role.name, c.system, c.messages.map((m) => m.content)])).toEqual([
      ['planner', 'You are the planner.', ['Plan for: alpha beta gamma\n## counts\n3 words\n\n## first\nfirst: alpha']],
      ['writer', 'You are the writer.', ['T5 writer. Task: alpha beta gamma. Brief data: planner output']],
      ['checker', 'You are the checker.', ['Check writer output and answer in JSON with a field pass.']],
    ]);
    expect(result.context['slots.report']).toEqual({ data: { pass: true, notes: 'fine' }, receipt_id: null, summary: '{"pass": true, "notes": "fine"}', agent_id: 'checker' });
    expect(result.context['recipe.state']).toBe('done');
    expect(readFileSync(join(logsRoot, 'dod', 'findings.jsonl'), 'utf8')).toBe('');
  });

  it('records a failed Definition of Done as findings and fails the run', async () => {
    const { backend } = scripted((r) => (r.role.name === 'checker' ? '{"pass": false}' : 'x'));
    const { result, logsRoot } = await runRecipe(demoProject(), backend);
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('Definition of Done: 1 of 3 checks failed (report_pass: $report.pass == true was false)');
    const findings = readFileSync(join(logsRoot, 'dod', 'findings.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(findings).toEqual([{ check: 'report_pass', expression: '$report.pass == true', kind: 'compare', actual: false, run_id: 'run', recipe: 'demo', task: 'alpha beta gamma', at: expect.any(String) }]);
  });

  it('never retries a failed agent step by itself: the person stops, retries or skips', async () => {
    let writerCalls = 0;
    const { backend } = scripted((r) => {
      if (r.role.name === 'writer') {
        writerCalls += 1;
        if (writerCalls === 1) throw new Error('provider down');
        return '';
      }
      return r.role.name === 'checker' ? '{"pass": true}' : 'plan';
    });
    // Retry once (the provider error), then skip (the empty reply): the draft slot is left empty and the DoD says so.
    const interviewer = new QueueInterviewer(['Retry', 'Skip']);
    const { result, events } = await runRecipe(demoProject(), backend, { interviewer });
    expect(writerCalls).toBe(2);
    const failures = events.filter((e) => e.type === 'stage.failed').map((e) => (e as { nodeId: string; failureReason: string; willRetry: boolean }));
    expect(failures.map((f) => [f.nodeId, f.willRetry])).toEqual([['b2_writer', false], ['b2_writer', false], ['dod', false]]);
    expect(failures[0]?.failureReason).toContain('the writer step failed: provider down');
    expect(failures[1]?.failureReason).toContain('the writer step gave an empty reply');
    expect(result.context['slots.draft']).toEqual({ data: null, receipt_id: null, summary: '(skipped)', agent_id: 'writer' });
    expect(result.failureReason).toContain('draft_exists: $draft != null was null');
  });

  it('stops when the person says stop (what --auto-approve chooses)', async () => {
    const { backend } = scripted((r) => {
      if (r.role.name === 'writer') throw new Error('boom');
      return 'x';
    });
    const { result } = await runRecipe(demoProject(), backend, { interviewer: new QueueInterviewer(['Stop']) });
    expect(result.status).toBe('fail');
    expect(result.failureReason).toContain('stopped by the person after b2_writer failed');
  });

  it('runs with the simulation: every agent answers, JSON where the template asks for it', async () => {
    const { result } = await runRecipe(demoProject(), simulationBackend);
    expect(result.status).toBe('success');
    expect(result.context['slots.report']).toMatchObject({ data: { simulated: true, pass: true, role: 'checker' } });
  });

  it('runs a command tool the recipe declares (JSON in, JSON out), and names its failure', async () => {
    const recipe = RECIPE.replace('recipe_id: demo\n', 'recipe_id: demo\ntools:\n  count_words:\n    command: [node, tools/count.mjs]\n');
    const dir = demoProject({
      'recipes/demo.yaml': recipe,
      'tools/count.mjs': "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const a=JSON.parse(s);const words=a.text.split(' ');process.stdout.write(JSON.stringify({data:{words,count:words.length,file:a.file},summary:'by command'}));});\n",
    });
    const { backend } = scripted((r) => (r.role.name === 'checker' ? '{"pass": true}' : 'x'));
    const { result } = await runRecipe(dir, backend);
    expect(result.status).toBe('success');
    expect(result.context['slots.counts']).toMatchObject({ summary: 'by command', data: { count: 3 } });
    writeFileSync(join(dir, 'tools/count.mjs'), 'process.stdout.write("not json")\n');
    const broken = await runRecipe(dir, backend);
    expect(broken.result.failureReason).toContain('tool count_words wrote no JSON on stdout');
  });

  it('fills $args.<name> from the run arguments (a planned task initial_args, or --set)', async () => {
    const dir = demoProject({ 'recipes/demo.yaml': RECIPE.replace('args: { text: $TASK_DESCRIPTION, file: notes.md }', 'args: { text: "$args.words", file: notes.md }') });
    const { backend } = scripted((r) => (r.role.name === 'checker' ? '{"pass": true}' : 'x'));
    const { result } = await runRecipe(dir, backend, { context: { words: 'one two' } });
    expect(result.status).toBe('success');
    expect(result.context['slots.counts']).toMatchObject({ data: { words: ['one', 'two'], count: 2 } });
  });

  it('keeps templates and the task byte for byte, backslashes and quotes included', async () => {
    const template = 'Path C:\\new\\table, a "quote" \\" and a last \\\n{{task}}';
    const dir = demoProject({ 'recipes/templates/plan.md': template });
    const { backend, calls } = scripted((r) => (r.role.name === 'checker' ? '{"pass": true}' : 'x'));
    const task = 'scene 2 ends with \\';
    const prepared = prepareRecipe(openProject(dir, { home: tempDir(), env: {} }), 'demo', task, TOOLS);
    const registry = createDefaultRegistry({ backend, interviewer: new QueueInterviewer([]) });
    for (const [type, handler] of Object.entries(createRecipeHandlers({ backend, tools: TOOLS }))) registry.register(type, handler);
    const result = await runPipeline(prepared.graph, { registry, logsRoot: join(tempDir(), 'run') });
    expect(result.status).toBe('success');
    expect(calls[0]?.messages[0]?.content).toBe(template.replace('{{task}}', task));
  });

  it('notices a recipe changed after its run started, naming the step', async () => {
    const dir = demoProject();
    const { prepared } = await runRecipe(dir, simulationBackend);
    expect(recipeChange(prepared.graph, TOOLS)).toBeUndefined();
    writeFileSync(join(dir, 'recipes/templates/write.t5.md'), 'A different writer prompt');
    expect(recipeChange(prepared.graph, TOOLS)).toBe(`recipe demo changed since this run started: step b2_writer, template.t5 is different in ${join(dir, 'recipes/demo.yaml')} or its template`);
    writeFileSync(join(dir, 'recipes/demo.yaml'), RECIPE.replace('prompt_type: check', 'prompt_type: check\n    - agent: planner\n      input: [report]\n      output: again\n      prompt_type: plan'));
    expect(recipeChange(prepared.graph, TOOLS)).toBe('recipe demo changed its steps since this run started (b4_planner added)');
  });
});

describe('recipe wiring, checked before anything runs', () => {
  it('names every problem at its file:line:col', () => {
    const bad = `recipe_id: demo
phase_a:
  steps:
    - tool: count_words
      args: { text: $nothing_yet }
      outputs: [counts]
    - tool: no_such_tool
      outputs: [counts]
phase_b:
  pipeline:
    - agent: ghost
      input: [missing]
      output: draft
      prompt_type: nope
dod:
  - bad: "$draft >> 3"
`;
    const dir = demoProject({ 'recipes/demo.yaml': bad });
    let error: unknown;
    try {
      prepareRecipe(openProject(dir, { home: tempDir(), env: {} }), 'demo', 'task', TOOLS);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RecipeError);
    const file = join(dir, 'recipes/demo.yaml');
    expect((error as Error).message.split('\n')).toEqual([
      'recipe demo cannot run:',
      `${file}:5:13: phase_a.steps.0.args: $nothing_yet is not filled by an earlier step`,
      `${file}:7:13: phase_a.steps.1.tool: "no_such_tool" is not a tool (the tools are: count_words, first_item)`,
      `${file}:8:17: phase_a.steps.1.outputs.0: slot counts is filled by phase_a step 1 (count_words) already; a slot is written once`,
      `${file}:11:14: phase_b.pipeline.0.agent: "ghost" is not a role of ${join(dir, 'orchestra.yaml')} (the roles are: planner, writer, checker)`,
      `${file}:12:15: phase_b.pipeline.0.input.0: missing is not filled by an earlier step (filled so far: counts)`,
      `${file}:14:20: phase_b.pipeline.0.prompt_type: there is no template nope.md in ${join(dir, 'recipes')}/templates`,
      `${file}:16:10: dod.0.bad: > 3 is not a literal (true, false, null, a number or a quoted string)`,
    ]);
  });

  it('refuses a file that is not a recipe with one line at the place', () => {
    const dir = demoProject({ 'recipes/demo.yaml': 'recipe_id: demo\nphase_b:\n  pipeline:\n    - agent: planner\n      output: x\n      prompt_type: plan\n      tools: [read_file]\n' });
    expect(() => prepareRecipe(openProject(dir, { home: tempDir(), env: {} }), 'demo', 'task', TOOLS)).toThrow(`${join(dir, 'recipes/demo.yaml')}:4:7: phase_b.pipeline.0: Unrecognized key: "tools"`);
    expect(() => prepareRecipe(openProject(dir, { home: tempDir(), env: {} }), 'other', 'task', TOOLS)).toThrow(`no recipe "other" in ${join(dir, 'recipes')} (the recipes are demo)`);
  });
});
