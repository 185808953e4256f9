import type { CodergenBackend, Graph, GraphNode } from '@orchestra/core';
import { silentReporter } from '@orchestra/core/handlers';
import { RecipeError } from '../recipe-error.js';
import { ProposalSchema, type ProposedTask } from './plan-schema.js';

/** The chief's system prompt when it plans. */
export const PLANNER_SYSTEM =
  'You are the chief of a writing team. You turn what the person wants into a short list of concrete tasks, each small enough for one specialist pass, with the tasks it depends on. ' +
  'Where a task is too vague to start, add a scoping_question for the person. Reply with only a JSON object.';

/** The plan request's shape, shown to the chief. */
const SHAPE = '{"tasks": [{"id": "t1", "description": "what to do, concretely", "type": "draft | consistency | prose | foreshadow | validate | canon | outline", "deps": [], "dod": ["what done means"], "scoping_question": null}]}';

/** A node standing for the chief in its calls (they belong to no pipeline). */
const CHIEF_NODE: GraphNode = { id: 'chief', attributes: {}, origins: {}, subgraphClasses: [] };
const NO_GRAPH = { name: 'plan', attributes: {}, nodes: new Map(), edges: [] } as unknown as Graph;

/** One call of the chief through the backend's tool-less role calls; its JSON reply checked against the schema. */
async function askChief(backend: CodergenBackend, prompt: string, signal: AbortSignal): Promise<ProposedTask[]> {
  const port = backend.conference;
  if (!port) throw new RecipeError('ORCH_PLAN', 'the backend cannot make the chief\'s call (it has no tool-less role calls)');
  const reply = await port.askRole({ node: CHIEF_NODE, graph: NO_GRAPH, role: { name: 'chief', contract: PLANNER_SYSTEM, evidence: 'none', tier: 'T5' }, system: PLANNER_SYSTEM, messages: [{ role: 'user', content: prompt }], signal, report: silentReporter });
  const text = reply.text.trim();
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(text)?.[1] ?? text;
  let json: unknown;
  try {
    json = JSON.parse(fenced);
  } catch {
    throw new RecipeError('ORCH_PLAN', `the chief's reply is not JSON (it starts ${JSON.stringify(text.slice(0, 80))})`);
  }
  const parsed = ProposalSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RecipeError('ORCH_PLAN', `the chief's plan is not one: ${issue?.path.join('.') || 'the reply'}: ${issue?.message}`);
  }
  return parsed.data.tasks;
}

/**
 * The chief decomposes an intent into tasks (one model call, its structured
 * output checked with zod). A reply with no tasks makes the intent itself
 * the one task.
 */
export async function proposeTasks(backend: CodergenBackend, intent: string, signal: AbortSignal): Promise<ProposedTask[]> {
  const tasks = await askChief(backend, `What the person wants:\n${intent}\n\nReply with only a JSON object of this shape:\n${SHAPE}`, signal);
  return tasks.length ? tasks : [{ id: 't1', description: intent, deps: [], dod: [], scoping_question: null }];
}

/**
 * After a task, the chief reads its findings (failed checks) and may propose
 * follow-up tasks (none when there is nothing to fix).
 */
export async function proposeFollowUps(backend: CodergenBackend, task: { id: string; description: string }, findings: readonly unknown[], signal: AbortSignal): Promise<ProposedTask[]> {
  if (findings.length === 0) return [];
  const prompt = `A task ended with findings: checks of its Definition of Done that failed.\nTask ${task.id}: ${task.description}\nFindings:\n${findings.map((f) => JSON.stringify(f)).join('\n')}\n\nPropose follow-up tasks that would fix them (an empty list when none would). Reply with only a JSON object of this shape:\n${SHAPE}`;
  return askChief(backend, prompt, signal);
}
