import { resolve } from 'node:path';
import { AutoApproveInterviewer, ConsoleInterviewer, QueueInterviewer, simulationBackend, isOrchestraError, type CodergenBackend, type Interviewer } from '@orchestra/core';
import { escapeControl } from '@orchestra/core/loader';
import { readAnswersFile } from '../answers-file.js';
import { ExitCode } from '../exit-codes.js';
import { abortOnSignals } from '../interrupt.js';
import { inputOf, stderrStreamOf, type CliIO } from '../io.js';
import { modelBackend } from '../llm-backend.js';
import { modelFlags, type ModelOptions } from '../model-flags.js';

/** Flags of `orchestra plan`. */
export interface PlanCommandFlags extends ModelOptions {
  project?: string;
  resume?: boolean;
  /** Task ids to start although a dependency has not finished (with --resume). */
  force?: string[];
  simulate?: boolean;
  autoApprove?: boolean;
  answers?: string;
}

async function interviewerFor(flags: PlanCommandFlags, io: CliIO): Promise<{ interviewer: Interviewer; close: () => void } | string> {
  if (flags.autoApprove && flags.answers) return 'use only one of --auto-approve and --answers';
  if (flags.autoApprove) return { interviewer: new AutoApproveInterviewer(), close: () => {} };
  if (flags.answers) {
    const answers = await readAnswersFile(flags.answers);
    return typeof answers === 'string' ? answers : { interviewer: new QueueInterviewer(answers), close: () => {} };
  }
  const console = new ConsoleInterviewer({ input: inputOf(io), output: await stderrStreamOf(io) });
  return { interviewer: console, close: () => console.close() };
}

/**
 * `orchestra plan "<intent>"` / `orchestra plan --resume [--force <task>]`:
 * a session plan for the project (`--project`, default the working
 * directory): the chief's tasks routed to recipes, shown for approval, run
 * task by task (`.orchestra/plan.json` records it after every change).
 * Exit 0 when every task is done, 1 when one failed or the plan was
 * cancelled, 3 when a task's run parked, 130 when stopped (Ctrl-C): the plan
 * is paused; `--resume` goes on.
 */
export async function planCommand(intent: string | undefined, flags: PlanCommandFlags, io: CliIO): Promise<number> {
  if (!flags.resume && !intent?.trim()) {
    io.stderr('orchestra: say what you want: orchestra plan "<intent>" (or orchestra plan --resume)\n');
    return ExitCode.usage;
  }
  if (flags.resume && intent) {
    io.stderr('orchestra: --resume goes on with the saved plan: give no intent with it\n');
    return ExitCode.usage;
  }
  const models = modelFlags(flags);
  if (typeof models === 'string') {
    io.stderr(`orchestra: ${models}\n`);
    return ExitCode.usage;
  }
  const asking = await interviewerFor(flags, io);
  if (typeof asking === 'string') {
    io.stderr(`orchestra: ${escapeControl(asking)}\n`);
    return ExitCode.usage;
  }
  const stop = abortOnSignals(() => {});
  try {
    const recipes = await import('@orchestra/recipes');
    const project = recipes.openProject(resolve(flags.project ?? '.'));
    const backend: CodergenBackend = flags.simulate ? simulationBackend : await modelBackend(project.config, models);
    const seen = new Map<string, string>();
    const file = recipes.planFile(project.dir);
    const options = {
      project,
      backend,
      tools: recipes.BUILT_IN_TOOLS,
      interviewer: asking.interviewer,
      signal: stop.signal,
      file,
      onEvent: (taskId: string, event: { type: string; nodeId?: string; status?: string }) => {
        if (event.type === 'pipeline.started' && seen.get(taskId) !== 'started') {
          seen.set(taskId, 'started');
          io.stdout(`▶ task ${escapeControl(taskId)}\n`);
        }
        if (event.type === 'stage.completed' && event.nodeId) io.stdout(`    ✓ ${escapeControl(event.nodeId)}\n`);
        if (event.type === 'stage.failed' && event.nodeId) io.stdout(`    ✗ ${escapeControl(event.nodeId)}\n`);
      },
    };
    const plan = flags.resume ? await recipes.resumePlan({ ...options, ...(flags.force?.length ? { force: flags.force } : {}) }) : await recipes.startPlan(intent as string, options);
    io.stdout(`${escapeControl(recipes.planText(plan))}\n`);
    io.stdout(`plan ${plan.state} (${escapeControl(file)})\n`);
    if (plan.state === 'done') return ExitCode.ok;
    if (plan.state === 'paused') {
      io.stdout('go on with: orchestra plan --resume\n');
      return stop.signal.aborted ? ExitCode.interrupted : ExitCode.parked;
    }
    return ExitCode.failed;
  } catch (error) {
    if (!isOrchestraError(error)) throw error;
    io.stderr(`orchestra: ${escapeControl(error.message)}\n`);
    return ExitCode.usage;
  } finally {
    stop.dispose();
    asking.close();
  }
}
