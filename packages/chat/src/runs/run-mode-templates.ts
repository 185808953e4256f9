import type { RunMode } from './launch-run-input.js';

/** How a template is filled in: the agents (model aliases) and extra instructions per agent. */
export interface TemplateOptions {
  /** Model aliases; unset: the configured default model (multi modes then fan out to two agents). */
  agents?: readonly string[];
  /** Extra system prompt text per alias, `*` for every agent. */
  systemPrompts?: Readonly<Record<string, string>>;
  /** Plan modes: several planners in parallel (launch_run's `agent_mode: multi`); default: when several agents are named. */
  multi?: boolean;
}

/** How many agents a multi mode fans out to when none are named. */
export const DEFAULT_AGENT_COUNT = 2;

/** What every stage is told: the task and what the session packed for it (context keys the run starts with). */
const BRIEF = 'Task: {{task}}\n\nContext from the conversation:\n{{task_context}}\n\nProject files:\n{{context_files}}';

/** A DOT string literal: backslashes and quotes escaped, line breaks as `\n` (orchestra reads them back as line breaks). */
export function quoted(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

interface Agent {
  /** Node id suffix: 1, 2, ... */
  n: number;
  alias?: string;
  instructions?: string;
}

function agentsOf(options: TemplateOptions, multi: boolean): Agent[] {
  const aliases = options.agents && options.agents.length > 0 ? options.agents : undefined;
  const count = aliases ? (multi ? aliases.length : 1) : multi ? DEFAULT_AGENT_COUNT : 1;
  return Array.from({ length: count }, (_, i) => {
    const alias = aliases?.[i];
    const instructions = [options.systemPrompts?.['*'], alias ? options.systemPrompts?.[alias] : undefined].filter(Boolean).join('\n\n');
    return { n: i + 1, ...(alias ? { alias } : {}), ...(instructions ? { instructions } : {}) };
  });
}

/** A stage node: label, prompt (with the agent's instructions first), the context key of its whole response, and model. */
function stage(id: string, label: string, prompt: string, key: string, agent?: Agent): string {
  const told = agent?.instructions ? `Instructions for you: ${agent.instructions}\n\n${prompt}` : prompt;
  const model = agent?.alias ? `, llm_model=${quoted(agent.alias)}` : '';
  return `    ${id} [label=${quoted(label)}, prompt=${quoted(told)}, response.key=${key}${model}]`;
}

const WORK = `${BRIEF}\n\nDo the task. Answer with the result itself.`;
const PLAN = `${BRIEF}\n\nDo not carry the task out. Describe how you would: the steps, what each needs, the risks. Answer with the plan.`;

/** Fans `agents` out in parallel from `fan` to `join`; each branch runs `prompt`. */
function parallel(agents: Agent[], prefix: string, label: string, prompt: string, key: string): string[] {
  return [
    `    fan [shape=component, label="Agents at work", max_parallel=${agents.length}]`,
    `    join [shape=tripleoctagon, label="All answers in"]`,
    ...agents.map((a) => stage(`${prefix}_${a.n}`, `${label} ${a.n}${a.alias ? ` (${a.alias})` : ''}`, prompt, key, a)),
    ...agents.map((a) => `    fan -> ${prefix}_${a.n} -> join`),
  ];
}

const ANSWERS = 'The agents\' answers (`answer` in each branch\'s context_updates):\n{{parallel.results}}';

function graph(name: string, comment: string, lines: string[]): string {
  return `// ${comment}\n// Context keys the run starts with: task, task_context, context_files (filled in by launch_run).\ndigraph ${name} {\n    start [shape=Mdiamond]\n    exit  [shape=Msquare]\n\n${lines.join('\n')}\n}\n`;
}

/**
 * The DOT pipeline of a run mode (docs/run-modes.md): users can read the
 * built-in templates in `packages/chat/templates/` and copy them into a
 * project. Every stage's prompt starts from `{{task}}`, `{{task_context}}`
 * and `{{context_files}}`.
 */
export function runModePipeline(mode: RunMode, options: TemplateOptions = {}): string {
  const multi = mode === 'multi' || mode === 'multi-refine' || ((mode === 'plan' || mode === 'plan-execute') && (options.multi ?? (options.agents?.length ?? 0) > 1));
  const agents = agentsOf(options, multi);
  const first = agents[0] as Agent;
  switch (mode) {
    case 'single':
      return graph('QuickSingle', 'Quick single: one agent does the task directly.', [stage('work', 'Do the task', WORK, 'answer', first), '', '    start -> work -> exit']);
    case 'single-refine':
      return graph('SingleRefine', 'Single + refine: one agent drafts, critiques its draft, then revises it.', [
        stage('draft', 'Draft', WORK, 'draft', first),
        stage('critique', 'Critique', `${BRIEF}\n\nA draft answer:\n{{draft}}\n\nCritique it: what is wrong, missing or unclear. List the changes to make.`, 'critique', first),
        stage('revise', 'Revise', `${BRIEF}\n\nThe draft:\n{{draft}}\n\nA critique of it:\n{{critique}}\n\nWrite the final answer with every change made.`, 'answer', first),
        '',
        '    start -> draft -> critique -> revise -> exit',
      ]);
    case 'multi':
      return graph('MultiPick', 'Multi, no refinement: the agents answer in parallel; the fan-in picks the best answer by outcome.', [
        ...parallel(agents, 'agent', 'Agent', WORK, 'answer'),
        '',
        '    start -> fan',
        '    join -> exit',
      ]);
    case 'multi-refine':
      return graph('MultiRefine', 'Multi + refine: the agents answer in parallel, an LLM ranks the answers, then the best is refined.', [
        ...parallel(agents, 'agent', 'Agent', WORK, 'answer'),
        stage('rank', 'Rank the answers', `${BRIEF}\n\n${ANSWERS}\n\nRank the answers from best to worst with one line of reasons each, then repeat the best answer in full.`, 'ranking', first),
        stage('refine', 'Refine the best', `${BRIEF}\n\n${ANSWERS}\n\nThe ranking, with the best answer:\n{{ranking}}\n\nImprove the best answer with what the others did better. Answer with the final result.`, 'answer', first),
        '',
        '    start -> fan',
        '    join -> rank -> refine -> exit',
      ]);
    case 'plan':
    case 'plan-execute': {
      const lines = multi
        ? [...parallel(agents, 'planner', 'Planner', PLAN, 'plan'), stage('choose', 'Choose a plan', `${BRIEF}\n\nThe plans (\`plan\` in each branch's context_updates):\n{{parallel.results}}\n\nChoose the best plan and give it in full.`, 'plan', first)]
        : [stage('plan', 'Plan', PLAN, 'plan', first)];
      const flow = multi ? ['    start -> fan', `    join -> choose -> ${mode === 'plan' ? 'exit' : 'execute'}`] : [`    start -> plan -> ${mode === 'plan' ? 'exit' : 'execute'}`];
      if (mode === 'plan') return graph(multi ? 'PlanOnlyMulti' : 'PlanOnly', 'Plan only: the agents describe an approach; nothing is carried out.', [...lines, '', ...flow]);
      return graph(multi ? 'PlanExecuteMulti' : 'PlanExecute', 'Plan → execute: plan first, then carry out the chosen plan.', [
        ...lines,
        stage('execute', 'Execute the plan', `${BRIEF}\n\nThe plan to carry out:\n{{plan}}\n\nCarry the plan out. Answer with the result.`, 'answer', first),
        '',
        ...flow,
        '    execute -> exit',
      ]);
    }
  }
}
