import type { CoordinationOverrides, RunMode } from './launch-run-input.js';

/** How a template is filled in: the agents (model aliases), extra instructions per agent, and the coordination overrides. */
export interface TemplateOptions {
  /** Model aliases; unset: the configured default model (multi modes then fan out to two agents). */
  agents?: readonly string[];
  /** Extra system prompt text per alias, `*` for every agent. */
  systemPrompts?: Readonly<Record<string, string>>;
  /** Plan modes: several planners in parallel (launch_run's `agent_mode: multi`); default: when several agents are named. */
  multi?: boolean;
  /** launch_run's `coordination_overrides`: voting rounds (multi), each stage's timeout and retries, agents at once. */
  coordination?: CoordinationOverrides;
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

/** A stage node: label, prompt (with the agent's instructions first), the context key of its whole response, model, and `tuning` (the overrides' attributes). */
function stage(id: string, label: string, prompt: string, key: string, agent?: Agent, tuning = ''): string {
  const told = agent?.instructions ? `Instructions for you: ${agent.instructions}\n\n${prompt}` : prompt;
  const model = agent?.alias ? `, llm_model=${quoted(agent.alias)}` : '';
  return `    ${id} [label=${quoted(label)}, prompt=${quoted(told)}, response.key=${key}${model}${tuning}]`;
}

/** The attributes every stage of a template gets from the coordination overrides (`timeout`, `max_retries`), as `, name=value` pairs. */
function tuningOf(coordination: CoordinationOverrides | undefined): string {
  const timeout = coordination?.agent_timeout !== undefined ? `, timeout=${quoted(coordination.agent_timeout.trim())}` : '';
  const retries = coordination?.max_retries !== undefined ? `, max_retries=${coordination.max_retries}` : '';
  return `${timeout}${retries}`;
}

const WORK = `${BRIEF}\n\nDo the task. Answer with the result itself.`;
const PLAN = `${BRIEF}\n\nDo not carry the task out. Describe how you would: the steps, what each needs, the risks. Answer with the plan.`;

/** Fans `agents` out in parallel from `fan` to `join` (at most `maxParallel` at once); each branch runs `prompt`. */
function parallel(agents: Agent[], prefix: string, label: string, prompt: string, key: string, maxParallel: number, tuning: string): string[] {
  return [
    `    fan [shape=component, label="Agents at work", max_parallel=${Math.min(maxParallel, agents.length)}]`,
    `    join [shape=tripleoctagon, label="All answers in"]`,
    ...agents.map((a) => stage(`${prefix}_${a.n}`, `${label} ${a.n}${a.alias ? ` (${a.alias})` : ''}`, prompt, key, a, tuning)),
    ...agents.map((a) => `    fan -> ${prefix}_${a.n} -> join`),
  ];
}

const ANSWERS = 'The agents\' answers (`answer` in each branch\'s context_updates):\n{{parallel.results}}';

/** The id of agent `n`'s vote in `round` (`vote_1`, ...; from the second round `vote2_1`, ...): its node and its context key. */
function voteId(round: number, n: number): string {
  return round === 1 ? `vote_${n}` : `vote${round}_${n}`;
}

/**
 * The vote stages of the multi mode: each agent, on its model, reads every
 * answer and votes (`VOTE: agent_<n>` on its last line); from the second
 * round each also reads the earlier rounds' votes. Then the fan-in `tally`
 * counts the last round's votes (`fan_in.votes`, see core's fan-in).
 */
function voting(agents: Agent[], rounds: number, tuning: string): { lines: string[]; flow: string } {
  const ids = agents.map((a) => `agent_${a.n}`);
  const lines: string[] = [];
  const order: string[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    const earlier = Array.from({ length: round - 1 }, (_, r) => agents.map((a) => `### ${voteId(r + 1, a.n)}\n{{${voteId(r + 1, a.n)}}}`).join('\n\n')).join('\n\n');
    for (const a of agents) {
      const id = voteId(round, a.n);
      const before = earlier ? `\n\nThe votes of the earlier ${round === 2 ? 'round' : 'rounds'}, with their reasons:\n${earlier}\n\nWeigh them; you may change your vote.` : '';
      const prompt = `${BRIEF}\n\nThe agents' answers (\`answer\` in each branch's context_updates; the branch \`id\` names each answer):\n{{parallel.results}}${before}\n\nYou are agent_${a.n}: the answer of agent_${a.n} is yours. Vote for the answer that does the task best (the most correct, complete and clear); you may vote for your own. Give your reasons in a few lines, then end with one line: VOTE: <id>, where <id> is one of ${ids.join(', ')}.`;
      lines.push(stage(id, `${rounds > 1 ? `Round ${round}: vote` : 'Vote'} of agent ${a.n}${a.alias ? ` (${a.alias})` : ''}`, prompt, id, a, tuning));
      order.push(id);
    }
  }
  const last = agents.map((a) => voteId(rounds, a.n)).join(',');
  lines.push(`    tally [shape=tripleoctagon, label="Count the votes", fan_in.votes=${quoted(last)}]`);
  return { lines, flow: `    join -> ${order.join(' -> ')} -> tally -> exit` };
}

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
  const tuning = tuningOf(options.coordination);
  const fanOut = (prefix: string, label: string, prompt: string, key: string) => parallel(agents, prefix, label, prompt, key, options.coordination?.max_parallel ?? agents.length, tuning);
  const step = (id: string, label: string, prompt: string, key: string) => stage(id, label, prompt, key, first, tuning);
  switch (mode) {
    case 'single':
      return graph('QuickSingle', 'Quick single: one agent does the task directly.', [step('work', 'Do the task', WORK, 'answer'), '', '    start -> work -> exit']);
    case 'single-refine':
      return graph('SingleRefine', 'Single + refine: one agent drafts, critiques its draft, then revises it.', [
        step('draft', 'Draft', WORK, 'draft'),
        step('critique', 'Critique', `${BRIEF}\n\nA draft answer:\n{{draft}}\n\nCritique it: what is wrong, missing or unclear. List the changes to make.`, 'critique'),
        step('revise', 'Revise', `${BRIEF}\n\nThe draft:\n{{draft}}\n\nA critique of it:\n{{critique}}\n\nWrite the final answer with every change made.`, 'answer'),
        '',
        '    start -> draft -> critique -> revise -> exit',
      ]);
    case 'multi': {
      const vote = voting(agents, options.coordination?.voting_rounds ?? 1, tuning);
      return graph('MultiVote', 'Multi, no refinement: the agents answer in parallel, then each votes for the best answer; the answer with the most votes wins.', [
        ...fanOut('agent', 'Agent', WORK, 'answer'),
        ...vote.lines,
        '',
        '    start -> fan',
        vote.flow,
      ]);
    }
    case 'multi-refine':
      return graph('MultiRefine', 'Multi + refine: the agents answer in parallel, an LLM ranks the answers, then the best is refined.', [
        ...fanOut('agent', 'Agent', WORK, 'answer'),
        step('rank', 'Rank the answers', `${BRIEF}\n\n${ANSWERS}\n\nRank the answers from best to worst with one line of reasons each, then repeat the best answer in full.`, 'ranking'),
        step('refine', 'Refine the best', `${BRIEF}\n\n${ANSWERS}\n\nThe ranking, with the best answer:\n{{ranking}}\n\nImprove the best answer with what the others did better. Answer with the final result.`, 'answer'),
        '',
        '    start -> fan',
        '    join -> rank -> refine -> exit',
      ]);
    case 'plan':
    case 'plan-execute': {
      const lines = multi
        ? [...fanOut('planner', 'Planner', PLAN, 'plan'), step('choose', 'Choose a plan', `${BRIEF}\n\nThe plans (\`plan\` in each branch's context_updates):\n{{parallel.results}}\n\nChoose the best plan and give it in full.`, 'plan')]
        : [step('plan', 'Plan', PLAN, 'plan')];
      const flow = multi ? ['    start -> fan', `    join -> choose -> ${mode === 'plan' ? 'exit' : 'execute'}`] : [`    start -> plan -> ${mode === 'plan' ? 'exit' : 'execute'}`];
      if (mode === 'plan') return graph(multi ? 'PlanOnlyMulti' : 'PlanOnly', 'Plan only: the agents describe an approach; nothing is carried out.', [...lines, '', ...flow]);
      return graph(multi ? 'PlanExecuteMulti' : 'PlanExecute', 'Plan → execute: plan first, then carry out the chosen plan.', [
        ...lines,
        step('execute', 'Execute the plan', `${BRIEF}\n\nThe plan to carry out:\n{{plan}}\n\nCarry the plan out. Answer with the result.`, 'answer'),
        '',
        ...flow,
        '    execute -> exit',
      ]);
    }
  }
}
