import { RunRefusal, isOrchestraError } from '@orchestra/core';
import { PlanConflict, type HeldPlan, type HeldPlanQuestion, type Plan } from '@orchestra/recipes';
import type { PlanJson, PlanQuestionJson, PlanTaskJson } from '../api-types.js';
import { questionJson } from '../runs/run-summary.js';
import { PlanRefusal } from './plan-refusal.js';

/** Options of {@link ServerPlans}. */
export interface ServerPlansOptions {
  /** The server accepts what runs commands or reads files (`--allow-tools`): plans need it, their recipes' tool steps read the project. */
  allowTools: boolean;
}

function planQuestionJson(q: HeldPlanQuestion): PlanQuestionJson {
  return { ...questionJson({ ...q, source: 'live' }), id: q.id, task: q.task, run_id: q.runId };
}

/**
 * The project's session plan in the shapes of the HTTP API: a thin layer
 * over a {@link HeldPlan} (which proposes, edits, runs, pauses and resumes
 * it and holds its questions). Refusals are {@link PlanRefusal}s (nothing
 * to act on, a conflict with the plan's state, a damaged plan file), the
 * supervisor's `RunRefusal`s (`ORCH_TOOLS_REFUSED` without
 * `--allow-tools`, a question not pending) and the plans' own errors; the
 * HTTP layer gives them statuses.
 */
export class ServerPlans {
  constructor(
    readonly held: HeldPlan,
    readonly options: ServerPlansOptions,
  ) {}

  /** Where the plan is (with its questions); a {@link PlanRefusal} when the project has none. */
  async view(): Promise<PlanJson> {
    this.allowed();
    this.read();
    const view = await this.held.view();
    if (!view) throw this.noPlan();
    const questions = (await this.held.questions()).map(planQuestionJson);
    return { ...(view.plan as Plan & { tasks: PlanTaskJson[] }), active: view.active, simulate: view.simulate, error: view.error, questions };
  }

  /** The chief proposes a plan for `intent`. */
  async propose(intent: string, simulate: boolean): Promise<PlanJson> {
    this.allowed();
    this.read({ absent: 'ok' });
    await this.conflicts(() => this.held.propose(intent, { simulate }));
    return this.view();
  }

  /** Gives task `id` a new description (before the plan starts). */
  edit(id: string, description: string): Promise<PlanJson> {
    return this.onTask(id, () => this.held.edit(id, description));
  }

  /** Removes task `id` (before the plan starts). */
  remove(id: string): Promise<PlanJson> {
    return this.onTask(id, () => this.held.remove(id));
  }

  /** Moves task `id` to `position` (1 is first), within its dependencies. */
  move(id: string, position: number): Promise<PlanJson> {
    return this.onTask(id, () => this.held.move(id, position));
  }

  /** Starts blocked task `id`. */
  force(id: string): Promise<PlanJson> {
    return this.onTask(id, () => this.held.force(id));
  }

  /** Approves the proposed plan and runs it in the background (`simulate`: its task runs are simulated; default as it was proposed). */
  start(simulate?: boolean): Promise<PlanJson> {
    return this.onPlan(() => this.held.start(simulate === undefined ? {} : { simulate }));
  }

  /** Stops the plan at the next task boundary; resolves once it is paused. */
  pause(): Promise<PlanJson> {
    return this.onPlan(() => this.held.pause());
  }

  /** Goes on with a paused plan. */
  resume(simulate?: boolean): Promise<PlanJson> {
    return this.onPlan(() => this.held.resume(simulate === undefined ? {} : { simulate }));
  }

  /** Answers a question the plan waits for. */
  async answer(questionId: string, text: string): Promise<{ id: string; value: string }> {
    this.allowed();
    this.read();
    return this.held.answer(questionId, text);
  }

  /** Pauses a plan running here (the server is shutting down). */
  close(): Promise<void> {
    return this.held.close();
  }

  /** Refuses every plan request (`ORCH_TOOLS_REFUSED`) unless the server allows tools. */
  allowed(): void {
    if (!this.options.allowTools) {
      throw new RunRefusal('ORCH_TOOLS_REFUSED', "a session plan runs the project's recipes, whose tool steps read its files (and may run the commands they declare); this server refuses plans unless it is started with --allow-tools");
    }
  }

  private noPlan(): PlanRefusal {
    return new PlanRefusal('not_found', 'ORCH_NOT_FOUND', `there is no plan in ${this.held.file}; propose one with POST /plan`, { plan_file: this.held.file });
  }

  /** The plan file, read: a damaged one is refused as unreadable (and left as it is). */
  private read(how: { absent?: 'ok' } = {}): Plan | undefined {
    let plan: Plan | undefined;
    try {
      plan = this.held.plan();
    } catch (error) {
      if (isOrchestraError(error)) throw new PlanRefusal('unreadable', error.code, error.message, {}, { cause: error });
      throw error;
    }
    if (!plan && how.absent !== 'ok') throw this.noPlan();
    return plan;
  }

  private async onPlan(change: () => unknown): Promise<PlanJson> {
    this.allowed();
    this.read();
    await this.conflicts(change);
    return this.view();
  }

  private async onTask(id: string, change: () => unknown): Promise<PlanJson> {
    this.allowed();
    const plan = this.read() as Plan;
    if (!plan.tasks.some((t) => t.id === id)) throw new PlanRefusal('not_found', 'ORCH_NOT_FOUND', `the plan has no task ${JSON.stringify(id)} (its tasks: ${plan.tasks.map((t) => t.id).join(', ')})`);
    await this.conflicts(change);
    return this.view();
  }

  /** Runs a change; a conflict with the plan's state becomes a {@link PlanRefusal}. */
  private async conflicts(change: () => unknown): Promise<void> {
    try {
      await change();
    } catch (error) {
      if (error instanceof PlanConflict) throw new PlanRefusal('conflict', error.code, error.message, {}, { cause: error });
      throw error;
    }
  }
}
