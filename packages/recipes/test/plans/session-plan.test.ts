import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueueInterviewer, simulationBackend, type CodergenBackend } from '@orchestra/core';
import type { ConferenceBackend, RoleCallRequest } from '@orchestra/core/handlers';
import { fixturePath } from '@orchestra/testing';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOLS, openProject, planFile, readPlan, resumePlan, startPlan, type Plan } from '../../src/index.js';
import { tempDir } from '../helpers.js';

function manuscript(): string {
  const dir = join(tempDir(), 'manuscript');
  cpSync(fixturePath('manuscript'), dir, { recursive: true });
  return dir;
}

const PROPOSAL = {
  tasks: [
    { id: 'consistency', description: 'check scene 2 for continuity errors', deps: [] },
    { id: 'prose', description: 'review the prose and pacing of scene 2', deps: ['consistency'] },
    { id: 'vague', description: 'make the book better', deps: [] },
  ],
};

/** The simulation, with the chief's replies scripted; every call's prompt recorded. */
function backendWith(chief: (request: RoleCallRequest, n: number) => string, agents?: (request: RoleCallRequest) => Promise<string> | string) {
  const base = simulationBackend.conference as ConferenceBackend;
  const prompts: { role: string; text: string }[] = [];
  let n = 0;
  const conference: ConferenceBackend = {
    ...base,
    async askRole(request) {
      prompts.push({ role: request.role.name, text: request.messages.map((m) => m.content).join('\n') });
      if (request.role.name === 'chief') return { text: chief(request, ++n), model: 'scripted' };
      if (agents) return { text: await agents(request), model: 'scripted' };
      return base.askRole(request);
    },
  };
  return { backend: { run: async () => 'x', conference } as CodergenBackend, prompts };
}

function options(dir: string, backend: CodergenBackend, answers: string[], signal = new AbortController().signal) {
  return { project: openProject(dir, { home: tempDir(), env: {} }), backend, tools: BUILT_IN_TOOLS, interviewer: new QueueInterviewer(answers), signal };
}

describe('session plans', () => {
  it('decomposes, routes, asks for approval and scoping, then runs each task as a recipe run in dependency order', async () => {
    const dir = manuscript();
    const { backend, prompts } = backendWith((_r, n) => (n === 1 ? JSON.stringify(PROPOSAL) : '{"tasks": []}'));
    // Approve; then the vague task's scoping answer routes it to the prose recipe.
    const plan = await startPlan('Get scene 2 ready for the editor', options(dir, backend, ['Approve', 'review the prose and pacing of scene 2']));
    expect(plan.state).toBe('done');
    expect(plan.tasks.map((t) => [t.id, t.state, t.recipe_id])).toEqual([
      ['consistency', 'done', 'analytical_consistency'],
      ['prose', 'done', 'analytical_prose'],
      ['vague', 'done', 'analytical_prose'],
    ]);
    expect(plan.tasks.every((t) => t.run_id)).toBe(true);
    const saved = readPlan(planFile(dir)) as Plan;
    expect(saved.tasks.map((t) => t.run_id)).toEqual(plan.tasks.map((t) => t.run_id));
    // Each task is a run of the project's runs, in dependency order.
    const runs = plan.tasks.map((t) => JSON.parse(readFileSync(join(dir, '.orchestra', 'runs', t.run_id as string, 'manifest.json'), 'utf8')) as { started_at: string });
    expect(runs[0]!.started_at <= runs[1]!.started_at).toBe(true);
    // Agents never see the plan, the intent or other tasks.
    const agentPrompts = prompts.filter((p) => p.role !== 'chief');
    expect(agentPrompts.length).toBeGreaterThan(3);
    for (const p of agentPrompts) {
      expect(p.text).not.toContain('Get scene 2 ready for the editor');
      expect(p.text).not.toMatch(/\bplan\b|recipe/i);
    }
  });

  it('lets the person edit, remove and move tasks before approving (within dependencies)', async () => {
    const dir = manuscript();
    const { backend } = backendWith(() => JSON.stringify(PROPOSAL));
    const answers = ['Move a task', 'consistency 2', 'Remove a task', 'vague', 'Edit a task', 'prose: review the prose of scene 2', 'Cancel'];
    const plan = await startPlan('Get scene 2 ready', options(dir, backend, answers));
    expect(plan.state).toBe('failed'); // cancelled
    expect(plan.tasks.map((t) => [t.id, t.state, t.description])).toEqual([
      ['consistency', 'pending', 'check scene 2 for continuity errors'], // the move was refused: prose depends on it
      ['prose', 'pending', 'review the prose of scene 2'],
      ['vague', 'removed', 'make the book better'],
    ]);
  });

  it('refuses dependencies in a circle, and a damaged plan file, which it keeps', async () => {
    const dir = manuscript();
    const circle = { tasks: [{ id: 'a', description: 'check scene 2 for continuity errors', deps: ['b'] }, { id: 'b', description: 'review the prose of scene 2', deps: ['a'] }] };
    const { backend } = backendWith(() => JSON.stringify(circle));
    await expect(startPlan('x', options(dir, backend, []))).rejects.toThrow("the tasks' dependencies run in a circle: a → b → a");
    mkdirSync(join(dir, '.orchestra'), { recursive: true });
    writeFileSync(planFile(dir), '{"format": "orchestra.plan/1", "tasks": [');
    await expect(resumePlan(options(dir, backend, []))).rejects.toThrow(/plan\.json is damaged \(not JSON: .*\); it was left as it is/);
    expect(readFileSync(planFile(dir), 'utf8')).toBe('{"format": "orchestra.plan/1", "tasks": [');
  });

  it('pauses at a task boundary when stopped, and --resume goes on without running a finished task again', async () => {
    const dir = manuscript();
    const controller = new AbortController();
    const calls = new Map<string, number>();
    const { backend } = backendWith(
      (_r, n) => (n === 1 ? JSON.stringify({ tasks: PROPOSAL.tasks.slice(0, 2) }) : '{"tasks": []}'),
      (request) => {
        calls.set(request.role.name, (calls.get(request.role.name) ?? 0) + 1);
        // The first task's last agent stops the session: its run stops at a safe point and the plan pauses.
        if (request.role.name === 'editor' && !controller.signal.aborted) controller.abort();
        return /JSON/.test(request.messages[0]?.content ?? '') ? '{"pass": true, "findings": []}' : 'ok';
      },
    );
    const first = await startPlan('Get scene 2 ready', options(dir, backend, ['Approve'], controller.signal));
    expect(first.state).toBe('paused');
    expect(first.tasks.map((t) => t.state)).toEqual(['running', 'pending']);
    expect(readPlan(planFile(dir))?.state).toBe('paused');
    const second = await resumePlan(options(dir, backend, []));
    expect(second.state).toBe('done');
    expect(second.tasks.map((t) => t.state)).toEqual(['done', 'done']);
    // The task that was running is resumed (same run), and the step it had finished is not run again.
    expect(second.tasks[0]?.run_id).toBe(first.tasks[0]?.run_id);
    expect(calls.get('continuity')).toBe(1);
  });

  it('after a task with findings, adds the follow-ups the chief proposes that the person accepts', async () => {
    const dir = manuscript();
    const { backend } = backendWith(
      (request, n) => (n === 1 ? JSON.stringify({ tasks: [PROPOSAL.tasks[0]] }) : request.messages[0]?.content.includes('findings') ? JSON.stringify({ tasks: [{ id: 'fix', description: 'review the prose and pacing of scene 2', deps: [] }, { id: 'skip-me', description: 'check scene 2 for continuity errors', deps: [] }] }) : '{"tasks": []}'),
      (request) => (/JSON/.test(request.messages[0]?.content ?? '') ? '{"pass": false}' : 'ok'),
    );
    const plan = await startPlan('Get scene 2 ready', options(dir, backend, ['Approve', 'yes', 'no']));
    expect(plan.tasks.map((t) => [t.id, t.state, t.follow_up_of ?? null])).toEqual([
      ['consistency', 'failed', null],
      ['fix', 'done', 'consistency'],
    ]);
    expect(plan.tasks[0]?.findings).toBeGreaterThan(0);
  });
});
