import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath } from '@orchestra/testing';
import { RUN_DESCRIPTION_FILE, RUN_MODES, RunLauncher, runModeOf, runModePipeline, type RunMode } from '../src/index.js';

let launcher: RunLauncher | undefined;
afterEach(async () => {
  await launcher?.close();
  launcher = undefined;
});

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchestra-chat-'));
  writeFileSync(join(dir, 'notes.md'), 'The shed must be 2 m wide.\n');
  mkdirSync(join(dir, 'specs'));
  writeFileSync(join(dir, 'specs', 'a.md'), 'Spec A\n');
  writeFileSync(join(dir, 'specs', 'b.md'), 'Spec B\n');
  return dir;
}

describe('run modes (the seed matrix)', () => {
  it('maps the parameters to the six modes', () => {
    const cases: [Parameters<typeof runModeOf>[0], RunMode][] = [
      [{ agent_mode: 'single' }, 'single'],
      [{ agent_mode: 'single', refinement: true }, 'single-refine'],
      [{ agent_mode: 'multi', refinement: false }, 'multi'],
      [{ agent_mode: 'multi' }, 'multi-refine'],
      [{ agents: ['fast', 'smart'] }, 'multi-refine'],
      [{ agents: ['fast'] }, 'single'],
      [{}, 'single'],
      [{ agent_mode: 'multi', planning_mode: true }, 'plan'],
      [{ planning_mode: true, execute_after_planning: true }, 'plan-execute'],
    ];
    for (const [input, mode] of cases) expect(runModeOf(input), JSON.stringify(input)).toBe(mode);
  });

  it('ships each template as a file users can read and copy, equal to what launch_run runs', () => {
    const dir = new URL('../templates/', import.meta.url);
    for (const mode of RUN_MODES) expect(readFileSync(new URL(`${mode}.dot`, dir), 'utf8'), mode).toBe(runModePipeline(mode));
    expect(readdirSync(dir).sort()).toEqual(RUN_MODES.map((m) => `${m}.dot`).sort());
  });

  it.each(RUN_MODES)('runs the %s template to the end and reports its result', async (mode) => {
    const dir = project();
    launcher = new RunLauncher({ projectDir: dir, simulate: true, checkpointIntervalMs: 0 });
    const planning = mode === 'plan' || mode === 'plan-execute';
    const id = await launcher.launch({
      task: 'Plan a garden shed',
      context: 'Budget 500 EUR',
      context_paths: ['notes.md'],
      agent_mode: mode.startsWith('multi') ? 'multi' : 'single',
      refinement: mode.endsWith('refine'),
      planning_mode: planning,
      execute_after_planning: mode === 'plan-execute',
    });
    const result = await launcher.wait(id);
    expect(result).toMatchObject({ id, task: 'Plan a garden shed', pipeline: `template:${mode}`, status: 'completed', failure_reason: null, questions: [] });
    expect(result.final_response).toMatch(/^\[Simulated\] Response for stage: \w+/);
    expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    const description = JSON.parse(readFileSync(join(result.run_dir, RUN_DESCRIPTION_FILE), 'utf8'));
    expect(description).toMatchObject({ id, task: 'Plan a garden shed', mode, parameters: { context: 'Budget 500 EUR' } });
    // Every stage was given the task, the conversation's context and the project file.
    const first = result.completed_nodes.find((n) => !['start', 'fan', 'join', 'exit'].includes(n)) ?? 'agent_1';
    const prompt = readFileSync(join(result.run_dir, first, 'prompt.md'), 'utf8');
    expect(prompt).toContain('Task: Plan a garden shed');
    expect(prompt).toContain('Budget 500 EUR');
    expect(prompt).toContain('### notes.md\nThe shed must be 2 m wide.');
  });

  it('a multi run without refinement reports the best branch\'s answer; agents become branches on their models', async () => {
    launcher = new RunLauncher({ projectDir: project(), simulate: true, checkpointIntervalMs: 0 });
    const prepared = launcher.prepare({ task: 't', agents: ['fast', 'smart', 'deep'], refinement: false, agent_system_prompts: { smart: 'Think hard' } });
    expect(prepared.mode).toBe('multi');
    // Each agent answers, then votes, on its own model.
    expect(prepared.source.match(/llm_model="(\w+)"/g)).toEqual(['fast', 'smart', 'deep', 'fast', 'smart', 'deep'].map((m) => `llm_model="${m}"`));
    expect(prepared.source).toContain('prompt="Instructions for you: Think hard\\n\\nTask: {{task}}');
    const result = await launcher.wait(await launcher.start(prepared));
    expect(result.final_response).toBe('[Simulated] Response for stage: agent_1');
  });
});

describe('multi without refinement: the agents vote', () => {
  /** A backend whose agents answer `answers[n]` and vote `votes[vote id]`, recording each stage's prompt and model. */
  function votingBackend(answers: Record<string, string>, votes: Record<string, string>) {
    const prompts: Record<string, string> = {};
    const models: Record<string, string | undefined> = {};
    const backend = {
      run: async ({ node, prompt }: { node: { id: string; attributes: Readonly<Record<string, string>> }; prompt: string }) => {
        prompts[node.id] = prompt;
        models[node.id] = node.attributes.llm_model;
        return answers[node.id] ?? votes[node.id] ?? `${node.id}?`;
      },
    };
    return { backend, prompts, models };
  }

  it('each agent sees every answer and votes on its own model; the answer with the most votes is the result, the votes recorded in the run', async () => {
    const { backend, prompts, models } = votingBackend(
      { agent_1: 'A short answer.', agent_2: 'A full answer, with every step.' },
      { vote_1: 'Agent 2 covers every step.\nVOTE: agent_2', vote_2: 'Mine is complete.\nVOTE: agent_2' },
    );
    launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
    const result = await launcher.wait(await launcher.launch({ task: 't', agents: ['fast', 'smart'], refinement: false }));
    expect(result.status).toBe('completed');
    expect(result.final_response).toBe('A full answer, with every step.');
    expect(result.completed_nodes).toEqual(['start', 'fan', 'join', 'vote_1', 'vote_2', 'tally', 'exit']);
    expect(prompts.vote_1).toContain('A full answer, with every step.');
    expect(prompts.vote_1).toContain('You are agent_1');
    expect(models).toMatchObject({ vote_1: 'fast', vote_2: 'smart' });
    const tally = JSON.parse(readFileSync(join(result.run_dir, 'tally', 'status.json'), 'utf8')) as { notes: string; context_updates: Record<string, unknown> };
    expect(tally.notes).toBe('Selected best candidate: agent_2 (2 of 2 votes)');
    expect(tally.context_updates).toMatchObject({ 'parallel.fan_in.best_id': 'agent_2', 'parallel.fan_in.votes': { vote_1: 'agent_2', vote_2: 'agent_2' }, 'parallel.fan_in.tally': { agent_1: 0, agent_2: 2 } });
    expect(readFileSync(join(result.run_dir, 'vote_2', 'response.md'), 'utf8')).toBe('Mine is complete.\nVOTE: agent_2');
  });

  it('a tie goes to the first agent\'s answer', async () => {
    const { backend } = votingBackend({ agent_1: 'One.', agent_2: 'Two.' }, { vote_1: 'VOTE: agent_2', vote_2: 'VOTE: agent_1' });
    launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
    const result = await launcher.wait(await launcher.launch({ task: 't', agent_mode: 'multi', refinement: false }));
    expect(result.final_response).toBe('One.');
  });

  describe('coordination_overrides', () => {
    it('voting_rounds, agent_timeout, max_parallel and max_retries become attributes of the template\'s nodes; the last round\'s votes count', async () => {
      const { backend, prompts } = votingBackend(
        { agent_1: 'One.', agent_2: 'Two.' },
        { vote_1: 'VOTE: agent_1', vote_2: 'VOTE: agent_1', vote2_1: 'After reading vote_2: VOTE: agent_2', vote2_2: 'VOTE: agent_2' },
      );
      launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
      const prepared = launcher.prepare({ task: 't', agent_mode: 'multi', refinement: false, coordination_overrides: { voting_rounds: 2, agent_timeout: '90s', max_parallel: 1, max_retries: 2 } });
      expect(prepared.source).toContain('fan [shape=component, label="Agents at work", max_parallel=1]');
      for (const id of ['agent_1', 'agent_2', 'vote_1', 'vote_2', 'vote2_1', 'vote2_2']) expect(prepared.source).toMatch(new RegExp(`\\n {4}${id} \\[[^\\n]*, timeout="90s", max_retries=2\\]`));
      expect(prepared.source).toContain('tally [shape=tripleoctagon, label="Count the votes", fan_in.votes="vote2_1,vote2_2"]');
      const result = await launcher.wait(await launcher.start(prepared));
      expect(result.final_response).toBe('Two.');
      expect(prompts.vote2_1).toContain('### vote_2\nVOTE: agent_1');
      const description = JSON.parse(readFileSync(join(result.run_dir, RUN_DESCRIPTION_FILE), 'utf8'));
      expect(description.parameters.coordination_overrides).toEqual({ voting_rounds: 2, agent_timeout: '90s', max_parallel: 1, max_retries: 2 });
    });

    it('refuses unknown keys by name, bad values, voting where nothing votes, and overrides for a project pipeline', () => {
      const dir = project();
      writeFileSync(join(dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
      launcher = new RunLauncher({ projectDir: dir, simulate: true });
      const refusal = (params: Record<string, unknown>) => {
        try {
          launcher?.prepare({ task: 't', ...params });
        } catch (error) {
          return (error as Error).message;
        }
        return 'not refused';
      };
      expect(refusal({ coordination_overrides: { voting_round: 2 } })).toBe(
        'launch_run: coordination_overrides: unknown key "voting_round" (did you mean "voting_rounds"?); known: voting_rounds, agent_timeout, max_parallel, max_retries',
      );
      expect(refusal({ coordination_overrides: { enable_planning_mode: true } })).toBe('launch_run: coordination_overrides: unknown key "enable_planning_mode"; known: voting_rounds, agent_timeout, max_parallel, max_retries');
      expect(refusal({ coordination_overrides: { agent_timeout: 'soon' } })).toBe('launch_run: coordination_overrides.agent_timeout: expected a duration such as 90s, 5m or 1h');
      expect(refusal({ coordination_overrides: { max_parallel: 0 } })).toMatch(/^launch_run: coordination_overrides\.max_parallel: /);
      expect(refusal({ coordination_overrides: { voting_rounds: 4 } })).toMatch(/^launch_run: coordination_overrides\.voting_rounds: /);
      expect(refusal({ agent_mode: 'multi', coordination_overrides: { voting_rounds: 2 } })).toBe(
        'launch_run: coordination_overrides.voting_rounds: only the multi mode without refinement votes (agent_mode "multi", refinement false); this is multi-refine',
      );
      expect(refusal({ pipeline: 'review.dot', coordination_overrides: { max_parallel: 2 } })).toMatch(/^launch_run: coordination_overrides: they shape the run-mode templates, not a project pipeline/);
      expect(refusal({ shel: 'x' })).toMatch(/^launch_run: unknown key "shel"; known: task, context, /);
      // Accepted where they apply.
      expect(launcher.prepare({ task: 't', coordination_overrides: { agent_timeout: '5m' } }).source).toContain('timeout="5m"');
    });
  });
});

describe('whole answers', () => {
  it('passes each stage\'s whole answer to the next, and returns the whole final answer (last_response keeps only 200 characters)', async () => {
    const draft = `${'A long draft line. '.repeat(40)}END OF DRAFT`;
    const prompts: Record<string, string> = {};
    const backend = {
      run: async ({ node, prompt }: { node: { id: string }; prompt: string }) => {
        prompts[node.id] = prompt;
        return node.id === 'draft' ? draft : `${node.id}: ${'x'.repeat(300)} END`;
      },
    };
    launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
    const result = await launcher.wait(await launcher.launch({ task: 't', agent_mode: 'single', refinement: true }));
    expect(result.status).toBe('completed');
    expect(prompts.critique).toContain(draft);
    expect(prompts.revise).toContain(draft);
    expect(prompts.revise).toContain(`critique: ${'x'.repeat(300)} END`);
    expect(result.final_response).toBe(`revise: ${'x'.repeat(300)} END`);
  });

  it('a multi run\'s best branch answer comes back whole', async () => {
    const backend = { run: async ({ node }: { node: { id: string } }) => `${node.id}: ${'y'.repeat(400)}` };
    launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
    const result = await launcher.wait(await launcher.launch({ task: 't', agent_mode: 'multi', refinement: false }));
    expect(result.final_response).toBe(`agent_1: ${'y'.repeat(400)}`);
  });
});

describe('tokens', () => {
  it('a run\'s tokens come back in the shape status.json records them in (input_tokens, output_tokens, total_tokens)', async () => {
    const backend = {
      run: async ({ report }: { report: { response(call: { model: string; durationMs: number; usage: { inputTokens: number; outputTokens: number; totalTokens: number } }): void } }) => {
        report.response({ model: 'm', durationMs: 1, usage: { inputTokens: 120, outputTokens: 30, totalTokens: 150 } });
        return 'done';
      },
    };
    launcher = new RunLauncher({ projectDir: project(), checkpointIntervalMs: 0, backendFor: async () => backend });
    const result = await launcher.wait(await launcher.launch({ task: 't', agent_mode: 'single' }));
    expect(result.status).toBe('completed');
    expect(result.tokens).toEqual({ input_tokens: 120, output_tokens: 30, total_tokens: 150 });
    const status = JSON.parse(readFileSync(join(result.run_dir, 'work', 'status.json'), 'utf8')) as { usage?: unknown };
    expect(result.tokens).toEqual(status.usage);
  });

  it('a simulated run has no tokens', async () => {
    launcher = new RunLauncher({ projectDir: project(), simulate: true, checkpointIntervalMs: 0 });
    expect((await launcher.wait(await launcher.launch({ task: 't' }))).tokens).toBeNull();
  });
});

describe('launch_run refuses what it should', () => {
  it('bad parameters, paths outside the project, missing pipelines', () => {
    const dir = project();
    launcher = new RunLauncher({ projectDir: dir, simulate: true });
    expect(() => launcher?.prepare({ task: '  ' })).toThrow(/task is empty/);
    expect(() => launcher?.prepare({ task: 't', agent_mode: 'many' })).toThrow(/agent_mode/);
    expect(() => launcher?.prepare({ task: 't', shell: 'x' })).toThrow(/shell/);
    expect(() => launcher?.prepare({ task: 't', context_paths: ['../etc/passwd'] })).toThrow(/outside/);
    expect(() => launcher?.prepare({ task: 't', context_paths: ['/etc/passwd'] })).toThrow(/outside/);
    symlinkSync('/etc', join(dir, 'escape'));
    expect(() => launcher?.prepare({ task: 't', context_paths: ['escape/passwd'] })).toThrow(/outside/);
    expect(() => launcher?.prepare({ task: 't', pipeline: 'missing.dot' })).toThrow(/missing.dot/);
    expect(() => launcher?.prepare({ task: 't', pipeline: '../x.dot' })).toThrow(/outside/);
    expect(() => launcher?.prepare({ task: 't', context_paths: ['nope.md'] })).toThrow('launch_run: context path nope.md does not exist in the project');
    expect(launcher.prepare({ task: 't', agent_mode: 'multi', planning_mode: true }).source).toContain('planner_2');
  });

  it('reads directories in context_paths, and runs a project pipeline; a pipeline with tool nodes needs allowTools', async () => {
    const dir = project();
    writeFileSync(join(dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
    writeFileSync(join(dir, 'tools.dot'), readFileSync(fixturePath('tools.dot'), 'utf8'));
    launcher = new RunLauncher({ projectDir: dir, simulate: true, checkpointIntervalMs: 0 });
    const prepared = launcher.prepare({ task: 'Review', pipeline: 'review.dot', context_paths: ['specs'] });
    expect(prepared.context.context_files).toBe('### specs/a.md\nSpec A\n\n### specs/b.md\nSpec B\n');
    const id = await launcher.start(prepared);
    // The gate waits: the run reports the question, answered like any other.
    let result = await launcher.result(id);
    for (let i = 0; i < 200 && result.status !== 'waiting'; i += 1) {
      await new Promise((r) => setTimeout(r, 20));
      result = await launcher.result(id);
    }
    expect(result).toMatchObject({ status: 'waiting', pipeline: 'review.dot', questions: [expect.objectContaining({ node_id: 'review_gate' })] });
    await launcher.answer(id, result.questions[0]?.id ?? '', 'A');
    expect((await launcher.wait(id)).status).toBe('completed');
    await expect(launcher.launch({ task: 't', pipeline: 'tools.dot' })).rejects.toThrow(/--allow-tools/);
  });

  it('cancels a run: its partial results come back, and it stays resumable', async () => {
    const dir = project();
    writeFileSync(join(dir, 'review.dot'), readFileSync(fixturePath('human-gate.dot'), 'utf8'));
    launcher = new RunLauncher({ projectDir: dir, simulate: true, checkpointIntervalMs: 0 });
    const id = await launcher.launch({ task: 'Review', pipeline: 'review.dot' });
    for (let i = 0; i < 200 && (await launcher.result(id)).status !== 'waiting'; i += 1) await new Promise((r) => setTimeout(r, 20));
    const cancelled = await launcher.cancel(id);
    expect(cancelled).toMatchObject({ status: 'cancelled', completed_nodes: ['start'] });
    expect((await launcher.list()).map((r) => r.id)).toEqual([id]);
  });
});
