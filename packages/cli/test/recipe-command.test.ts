import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixturePath, httpError, reply, startScriptedOpenAIServer, type RecordedRequest, type ScriptedOpenAIServer } from '@orchestra/testing';
import { modelFreeEnv, tempDir } from './cli-helpers.js';
import { cliWith } from './in-process.js';

/** A copy of the sample manuscript project (recipes, router, templates, roles). */
function manuscript(): string {
  const dir = join(tempDir(), 'manuscript');
  cpSync(fixturePath('manuscript'), dir, { recursive: true });
  return dir;
}

let server: ScriptedOpenAIServer;
beforeEach(async () => {
  server = await startScriptedOpenAIServer({ apiKey: 'k' });
});
afterEach(async () => {
  await server.close();
});

describe('orchestra recipe and orchestra route', () => {
  it('validate checks every recipe of the project, and names a broken one at file:line:col', async () => {
    const dir = manuscript();
    const ok = await cliWith(['recipe', 'validate', '--project', dir], { cwd: dir, env: modelFreeEnv() });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`${join(dir, 'recipes', 'creative_draft_scene.yaml')}: valid`);
    const file = join(dir, 'recipes', 'analytical_prose.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/agent: (\w+)/, 'agent: ghost'));
    const bad = await cliWith(['recipe', 'validate', 'analytical_prose', '--project', dir], { cwd: dir, env: modelFreeEnv() });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}:\\d+:\\d+: phase_b\\.pipeline\\.0\\.agent: "ghost" is not a role`, 'm'));
  });

  it('route picks a recipe without a model, with the arguments its rule captures', async () => {
    const dir = manuscript();
    const r = await cliWith(['route', 'check scene 2 for continuity errors', '--project', dir, '--json'], { cwd: dir, env: modelFreeEnv() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ recipe_id: 'analytical_consistency', routable: true });
    const none = await cliWith(['route', 'make me a sandwich', '--project', dir], { cwd: dir, env: modelFreeEnv() });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('routable: false');
  });

  it('show --dot prints the pipeline a recipe compiles to; run --simulate runs it to its Definition of Done', async () => {
    const dir = manuscript();
    const shown = await cliWith(['recipe', 'show', 'analytical_consistency', '--dot', '--task', 'check scene 2', '--project', dir], { cwd: dir, env: modelFreeEnv() });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/^digraph recipe_analytical_consistency \{/);
    expect(shown.stdout).toContain('type="recipe.tool"');
    const logs = join(tempDir(), 'run');
    const r = await cliWith(['recipe', 'run', 'analytical_consistency', '--task', 'check scene 2 for continuity errors', '--project', dir, '--simulate', '--logs-dir', logs], { cwd: dir, env: modelFreeEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ dod');
    const receipt = JSON.parse(readFileSync(join(logs, 'a1_file_locator', 'receipts.jsonl'), 'utf8').trim()) as { tool: string; payload: string };
    expect(receipt.tool).toBe('file_locator');
    expect(JSON.parse(receipt.payload)).toMatchObject({ scenePaths: expect.arrayContaining(['scenes/scene-02.md']) });
    // The run's pipeline draws like any other, its nodes coloured by their states.
    const picture = await cliWith(['render', join(logs, 'pipeline.dot'), '--run', logs], { cwd: dir, env: modelFreeEnv() });
    expect(picture.code, picture.stderr).toBe(0);
    expect(picture.stdout).toContain('<svg');
    expect(picture.stdout).toContain('b1_continuity');
  });

  it('runs a shipped recipe on the manuscript against the scripted OpenAI server (real ChatOpenAI clients, no tools sent)', async () => {
    const dir = manuscript();
    const system = (r: RecordedRequest) => String(r.messages?.[0]?.content ?? '');
    server.respondWith((r) => {
      if (system(r).startsWith('You are the continuity editor')) {
        return reply(JSON.stringify({ pass: false, findings: [{ quote: 'Her brown eyes were wide in the lamplight.', path: 'scenes/scene-02.md', contradicts: 'canon.md:15 green eyes', fix: 'green' }] }));
      }
      return reply('1. Make Wren\'s eyes green in scene 2.');
    });
    const logs = join(tempDir(), 'run');
    const env = modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' });
    // From another directory: the project's orchestra.yaml (its roles) is found all the same.
    const r = await cliWith(['recipe', 'run', 'analytical_consistency', '--task', 'check scene 2 for continuity errors', '--project', dir, '--model', 'scripted-model', '--logs-dir', logs], { cwd: tempDir(), env });
    expect(r.code).toBe(0);
    expect(server.completions).toHaveLength(2);
    expect(String(server.completions[0]?.messages?.[0]?.content)).toMatch(/^You are the continuity editor/);
    for (const request of server.completions) expect(request.tools ?? []).toEqual([]);
    // The continuity agent saw the task and the consistency report (the eye colour among its conflicts), nothing about other tasks.
    expect(server.completions[0]?.lastUserText).toContain('check scene 2 for continuity errors');
    expect(server.completions[0]?.lastUserText).toContain('brown');
    const checkpoint = JSON.parse(readFileSync(join(logs, 'checkpoint.json'), 'utf8')) as { context: Record<string, { data?: { findings?: unknown[] } }> };
    expect(checkpoint.context['slots.continuity_report']?.data?.findings).toHaveLength(1);
  });

  it('runs all seven shipped recipes on the manuscript: with --simulate, and against the scripted OpenAI server', async () => {
    const dir = manuscript();
    const tasks: Record<string, string> = {
      creative_draft_scene: 'draft scene 2',
      analytical_consistency: 'check scene 2 for continuity errors',
      analytical_prose: 'review the prose and pacing of scene 2',
      analytical_foreshadow: 'audit the foreshadowing of the letter',
      analytical_scene_validate: 'validate scene 2',
      structural_canon: 'update the canon from scene 2',
      structural_outline: 'restructure the outline',
    };
    // JSON steps get an object with every field the shipped templates ask for; the others a line of text.
    const json = JSON.stringify({ pass: true, findings: [], gaps: [], approve: true, concerns: [], ready: true, missing: [], new_facts: [], conflicts: [] });
    server.respondWith((r) => reply(/JSON/.test(String(r.lastUserText)) ? json : 'A concrete note on scene 2.'));
    const env = modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' });
    for (const [id, task] of Object.entries(tasks)) {
      const simulated = await cliWith(['recipe', 'run', id, '--task', task, '--project', dir, '--simulate', '--logs-dir', join(tempDir(), id)], { cwd: dir, env: modelFreeEnv() });
      expect(simulated.code, `${id} --simulate: ${simulated.stdout}${simulated.stderr}`).toBe(0);
      const before = server.completions.length;
      const real = await cliWith(['recipe', 'run', id, '--task', task, '--project', dir, '--model', 'scripted-model', '--logs-dir', join(tempDir(), `${id}-model`)], { cwd: dir, env });
      expect(real.code, `${id} with the scripted server: ${real.stdout}${real.stderr}`).toBe(0);
      expect(server.completions.length).toBeGreaterThan(before);
    }
    for (const request of server.completions) expect(request.tools ?? []).toEqual([]);
  });

  it('recipe run passes --set values to the run: $args.<name> reads them', async () => {
    const dir = manuscript();
    const file = join(dir, 'recipes', 'analytical_consistency.yaml');
    writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}\n  - scene_given: "$args.scene_number == '2'"\n`);
    const run = (set: string[]) => cliWith(['recipe', 'run', 'analytical_consistency', '--task', 'check scene 2', '--project', dir, '--simulate', ...set, '--logs-dir', join(tempDir(), 'run')], { cwd: tempDir(), env: modelFreeEnv() });
    expect((await run(['--set', 'scene_number=2'])).code).toBe(0);
    const without = await run([]);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("scene_given: $args.scene_number == '2' was null");
  });

  it('a failed agent step parks the run (exit 3); a recipe changed meanwhile refuses the resume, naming the step', async () => {
    const dir = manuscript();
    server.respondWith(() => httpError(400, { message: 'bad request from the scripted server' }));
    const logs = join(tempDir(), 'run');
    const env = modelFreeEnv({ OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'k' });
    const r = await cliWith(['recipe', 'run', 'analytical_consistency', '--task', 'check scene 2 for continuity errors', '--project', dir, '--model', 'scripted-model', '--park', '--logs-dir', logs], { cwd: dir, env });
    expect(r.code).toBe(3);
    expect(r.stdout + r.stderr).toContain('failed. Stop the run, retry the step, or skip it');
    // Every request sent no tools: phase-B agents get no tool catalogue.
    expect(server.completions.length).toBeGreaterThan(0);
    for (const request of server.completions) expect(request.tools ?? []).toEqual([]);
    const template = join(dir, 'recipes', 'templates', 'check_consistency.md');
    writeFileSync(template, `${readFileSync(template, 'utf8')}\nOne more line.\n`);
    const resumed = await cliWith(['resume', logs, '--model', 'scripted-model'], { cwd: dir, env });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toMatch(/recipe analytical_consistency changed since this run started: step b\d_\w+, template is different in .*analytical_consistency\.yaml or its template/);
  });
});

describe('orchestra plan', () => {
  it('--simulate --auto-approve plans, approves and runs the tasks; --resume of an ended plan changes nothing; a damaged plan is refused and kept', async () => {
    const dir = manuscript();
    const r = await cliWith(['plan', 'check scene 2 for continuity errors', '--project', dir, '--simulate', '--auto-approve'], { cwd: dir, env: modelFreeEnv() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('▶ task t1');
    expect(r.stdout).toMatch(/1\. \[done\] t1: check scene 2 for continuity errors → analytical_consistency \(run \S+\)/);
    const file = join(dir, '.orchestra', 'plan.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { state: string; tasks: { run_id: string }[] };
    expect(saved.state).toBe('done');
    const again = await cliWith(['plan', '--resume', '--project', dir, '--simulate', '--auto-approve'], { cwd: dir, env: modelFreeEnv() });
    expect(again.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).tasks[0].run_id).toBe(saved.tasks[0]?.run_id);
    writeFileSync(file, '{"format":');
    const damaged = await cliWith(['plan', '--resume', '--project', dir, '--simulate'], { cwd: dir, env: modelFreeEnv() });
    expect(damaged.code).toBe(2);
    expect(damaged.stderr).toContain('plan.json is damaged');
    expect(readFileSync(file, 'utf8')).toBe('{"format":');
  });
});
