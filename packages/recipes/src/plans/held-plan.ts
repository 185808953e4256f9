import { RunRefusal, type CodergenBackend, type PendingQuestion, type RunSupervisor } from '@orchestra/core';
import { HeldInterviewer } from '@orchestra/core/human';
import { RecipeError } from '../recipe-error.js';
import type { RecipeProject } from '../recipe-project.js';
import type { RecipeTool } from '../tool-types.js';
import { PlanConflict } from './plan-conflict.js';
import { editTask, removeTask, repositionTask } from './plan-edits.js';
import { checkDependencies } from './plan-order.js';
import type { Plan, PlanTask } from './plan-schema.js';
import { planFile, readPlan, writePlan } from './plan-store.js';
import { planRouter, proposePlan } from './propose-plan.js';
import { runPlan } from './run-plan.js';
import { supervisorTaskRunner } from './supervisor-task-runner.js';

/** What a {@link HeldPlan} works with. */
export interface HeldPlanOptions {
  project: RecipeProject;
  /** Runs the tasks' recipes (a run of its catalogue each) and holds their questions. */
  supervisor: RunSupervisor;
  tools: readonly RecipeTool[];
  /** The chief's model: the simulation for a simulated plan, else the front end's model. */
  backend(simulate: boolean): Promise<CodergenBackend>;
  /** `plan.json` (default `<project>/.orchestra/plan.json`). */
  file?: string;
}

/** A question the plan waits for: its own (scoping, follow-up), or one of the running task's run (a recipe's gate). */
export interface HeldPlanQuestion extends PendingQuestion {
  /** `plan.<n>` for the plan's own; `<task id>.<the run's question id>` for a task run's. */
  id: string;
  /** The task it is about (none for a plan question about no task). */
  task: string | null;
  /** The task run that asks it (none for the plan's own). */
  runId: string | null;
}

/** Where a held plan is: the plan, whether it runs here, and what stopped its last run by surprise. */
export interface HeldPlanView {
  plan: Plan;
  /** Its tasks run in this process now. */
  active: boolean;
  /** Its tasks' runs are simulated. */
  simulate: boolean;
  /** An error that stopped the plan's runner (the plan was paused), if one did. */
  error: string | null;
}

interface Runner {
  plan: Plan;
  controller: AbortController;
  done: Promise<void>;
}

const PLAN_QUESTION = /^plan\.\d+$/;
const TASK_QUESTION = /^([A-Za-z][A-Za-z0-9_-]*)\.(.+)$/;

/**
 * A session plan run in the background of a long-lived process (a server),
 * its questions held until answered: the chief proposes, the person edits,
 * removes and moves tasks, then starts it; it runs task by task (each
 * task's recipe a run of the supervisor's catalogue) while the process goes
 * on; pause stops it at the next task boundary (the running task's run at
 * its next safe point), resume goes on, force starts a blocked task. The
 * plan's scoping questions and follow-up proposals wait in a
 * {@link HeldInterviewer}, the task runs' gates in the supervisor: both are
 * listed by {@link HeldPlan.questions} and answered with
 * {@link HeldPlan.answer}. Refusals for the plan's state are
 * {@link PlanConflict}s; a task id the plan lacks, `ORCH_PLAN`.
 */
export class HeldPlan {
  readonly file: string;
  private readonly held = new HeldInterviewer();
  private runner: Runner | undefined;
  private proposing = false;
  /** Whether the plan of that creation time is simulated, as the person said when proposing or resuming it. */
  private readonly simulated = new Map<string, boolean>();
  private lastError: string | null = null;

  constructor(private readonly options: HeldPlanOptions) {
    this.file = options.file ?? planFile(options.project.dir);
  }

  /** The plan (the live one while it runs here), or undefined when the project has none; a damaged file is `ORCH_PLAN`. */
  plan(): Plan | undefined {
    return this.runner?.plan ?? readPlan(this.file);
  }

  /** Whether its tasks run in this process now. */
  get active(): boolean {
    return this.runner !== undefined;
  }

  /** The plan and where it stands; undefined without one. */
  async view(): Promise<HeldPlanView | undefined> {
    const plan = this.plan();
    if (!plan) return undefined;
    return { plan, active: this.active, simulate: await this.isSimulated(plan), error: this.lastError };
  }

  /** The chief proposes a plan for `intent` (replacing an ended or proposed one); it waits for edits and a start. */
  async propose(intent: string, how: { simulate: boolean; signal?: AbortSignal }): Promise<Plan> {
    if (this.runner) throw new PlanConflict('the plan is running here: pause it and let it end before proposing another');
    if (this.proposing) throw new PlanConflict('the chief is proposing a plan already');
    this.proposing = true;
    try {
      const backend = await this.options.backend(how.simulate);
      const plan = await proposePlan(intent, { project: this.options.project, backend, signal: how.signal ?? new AbortController().signal, file: this.file });
      this.simulated.set(plan.created_at, how.simulate);
      this.lastError = null;
      return plan;
    } finally {
      this.proposing = false;
    }
  }

  /** Changes a task's description before the plan starts (routed again at once). */
  edit(id: string, description: string): Plan {
    return this.change((plan) => editTask(plan, id, description, planRouter(this.options.project)));
  }

  /** Removes a task before the plan starts. */
  remove(id: string): Plan {
    return this.change((plan) => removeTask(plan, id));
  }

  /** Moves a task before the plan starts (1 is first), within its dependencies. */
  move(id: string, position: number): Plan {
    return this.change((plan) => repositionTask(plan, id, position));
  }

  /**
   * Approves the proposed plan and runs it in the background; resolves once
   * it runs. `simulate` (as `orchestra plan --simulate`): whether its task
   * runs are simulated; default as it was proposed.
   */
  async start(how: { simulate?: boolean } = {}): Promise<Plan> {
    const plan = this.stopped();
    if (plan.state !== 'proposed') throw new PlanConflict(`the plan is ${plan.state}: only a proposed plan is started${plan.state === 'paused' ? ' (resume this one)' : ''}`);
    checkDependencies(plan.tasks.filter((t) => t.state !== 'removed'));
    if (how.simulate !== undefined) this.simulated.set(plan.created_at, how.simulate);
    return this.launch(plan, await this.isSimulated(plan), []);
  }

  /**
   * Goes on with a paused plan (or one whose process stopped while it ran):
   * a task that was running has its run resumed. `simulate`: as for
   * {@link HeldPlan.start}; default as known here, else as its task runs were.
   */
  async resume(how: { simulate?: boolean } = {}): Promise<Plan> {
    const plan = this.stopped();
    if (plan.state === 'proposed') throw new PlanConflict('the plan has not started: start it');
    if (plan.state === 'done' || plan.state === 'failed') throw new PlanConflict(`the plan has ended (${plan.state})${plan.tasks.some((t) => t.state === 'blocked') ? '; force a blocked task to go on' : ''}`);
    if (how.simulate !== undefined) this.simulated.set(plan.created_at, how.simulate);
    return this.launch(plan, await this.isSimulated(plan), []);
  }

  /**
   * Starts a blocked task although a dependency has not finished: marked
   * forced in the running plan, or the plan (paused or ended) goes on with it.
   */
  async force(id: string): Promise<Plan> {
    const live = this.runner?.plan;
    const plan = live ?? this.existing();
    const task = taskOf(plan, id);
    if (plan.state === 'proposed') throw new PlanConflict('the plan has not started: start it first');
    if (task.state !== 'blocked') throw new PlanConflict(`task ${id} is ${task.state}, not blocked: only a blocked task is forced`);
    if (live) {
      task.forced = true;
      writePlan(this.file, live);
      return live;
    }
    return this.launch(plan, await this.isSimulated(plan), [id]);
  }

  /** Stops the plan at the next task boundary (the running task's run at its next safe point; a question the plan asks is given up); resolves once it stopped, paused. */
  async pause(): Promise<Plan> {
    const runner = this.runner;
    if (!runner) throw new PlanConflict(`the plan is not running here (it is ${this.existing().state})`);
    runner.controller.abort(new Error('the plan was paused'));
    this.held.parkAll();
    await runner.done;
    return runner.plan;
  }

  /** Stops a plan running here, as {@link HeldPlan.pause} (a process shutting down); nothing when none runs. */
  async close(): Promise<void> {
    if (this.runner) await this.pause();
  }

  /** The questions the plan waits for: its own, then those of its running task's run. */
  async questions(): Promise<HeldPlanQuestion[]> {
    const own = this.held.pending().map((q) => ({ ...q, task: typeof q.question.metadata.task === 'string' ? q.question.metadata.task : null, runId: null }));
    const plan = this.runner?.plan;
    if (!plan) return own;
    const runs: HeldPlanQuestion[] = [];
    for (const task of plan.tasks) {
      if (task.state !== 'running' || !task.run_id || !this.options.supervisor.isActive(task.run_id)) continue;
      for (const q of await this.options.supervisor.questions(task.run_id)) runs.push({ id: `${task.id}.${q.id}`, question: q.question, askedAt: q.askedAt, task: task.id, runId: task.run_id });
    }
    return [...own, ...runs];
  }

  /** Answers a question {@link HeldPlan.questions} lists (as `orchestra answer` checks answers): `ORCH_NOT_PENDING` when none of that id waits, `ORCH_BAD_ANSWER` when the answer fits none of its options. */
  async answer(id: string, text: string): Promise<{ id: string; value: string }> {
    if (PLAN_QUESTION.test(id)) {
      const answered = this.held.answer(id, text);
      if ('reason' in answered) throw new RunRefusal(answered.reason === 'invalid' ? 'ORCH_BAD_ANSWER' : 'ORCH_NOT_PENDING', answered.message);
      return { id, value: answered.value };
    }
    const match = TASK_QUESTION.exec(id);
    const task = match && this.runner?.plan.tasks.find((t) => t.id === match[1]);
    if (!match || !task || task.state !== 'running' || !task.run_id || !this.options.supervisor.isActive(task.run_id)) {
      throw new RunRefusal('ORCH_NOT_PENDING', `question ${JSON.stringify(id)} is not pending`);
    }
    const answered = await this.options.supervisor.answer(task.run_id, match[2], text);
    return { id, value: answered.value };
  }

  private existing(): Plan {
    const plan = readPlan(this.file);
    if (!plan) throw new RecipeError('ORCH_PLAN', `there is no plan in ${this.file}`);
    return plan;
  }

  /** The plan from its file, refused while it runs here. */
  private stopped(refusal = 'the plan is running here already'): Plan {
    if (this.runner) throw new PlanConflict(refusal);
    return this.existing();
  }

  private change(edit: (plan: Plan) => unknown): Plan {
    const plan = this.stopped('the plan is running: tasks are changed before it starts');
    edit(plan);
    writePlan(this.file, plan);
    return plan;
  }

  /** Whether a plan is simulated: as said when it was proposed or resumed here, else as its first task run was started. */
  private async isSimulated(plan: Plan): Promise<boolean> {
    const known = this.simulated.get(plan.created_at);
    if (known !== undefined) return known;
    const runId = plan.tasks.find((t) => t.run_id)?.run_id;
    if (!runId) return false;
    try {
      const report = await this.options.supervisor.report(runId);
      return (report.manifest.run_options as { simulate?: unknown } | undefined)?.simulate === true;
    } catch {
      return false;
    }
  }

  /** Runs the plan in the background; resolves once it is marked running. */
  private async launch(plan: Plan, simulate: boolean, force: readonly string[]): Promise<Plan> {
    const backend = await this.options.backend(simulate);
    if (this.runner) throw new PlanConflict('the plan is running here already');
    this.simulated.set(plan.created_at, simulate);
    this.lastError = null;
    const controller = new AbortController();
    const save = (p: Plan) => writePlan(this.file, p);
    const running = runPlan(plan, {
      save,
      interviewer: this.held,
      backend,
      route: planRouter(this.options.project),
      runTask: supervisorTaskRunner(this.options.supervisor, { project: this.options.project, tools: this.options.tools, runOptions: simulate ? { simulate: true } : {} }),
      signal: controller.signal,
      force,
    });
    const runner: Runner = { plan, controller, done: Promise.resolve() };
    runner.done = running.then(
      () => this.ended(runner, simulate),
      (error: unknown) => {
        // A question given up (a pause) or a surprise: the plan stops, paused, and can go on.
        if (!controller.signal.aborted) this.lastError = error instanceof Error ? error.message : String(error);
        plan.state = 'paused';
        save(plan);
        this.ended(runner, simulate);
      },
    );
    this.runner = runner;
    return plan;
  }

  /** The runner stopped: a task forced while it was ending runs now. */
  private ended(runner: Runner, simulate: boolean): void {
    if (this.runner === runner) this.runner = undefined;
    const { plan } = runner;
    const forced = plan.tasks.filter((t: PlanTask) => t.forced && (t.state === 'blocked' || t.state === 'pending')).map((t) => t.id);
    if (forced.length && !runner.controller.signal.aborted && (plan.state === 'done' || plan.state === 'failed')) {
      void this.launch(plan, simulate, forced).catch((error: unknown) => {
        this.lastError = error instanceof Error ? error.message : String(error);
      });
    }
  }
}

function taskOf(plan: Plan, id: string): PlanTask {
  const task = plan.tasks.find((t) => t.id === id);
  if (!task) throw new RecipeError('ORCH_PLAN', `no task ${id}`);
  return task;
}
