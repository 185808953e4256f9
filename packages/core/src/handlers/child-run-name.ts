import type { HandlerInput } from '../engine/handler.js';

/**
 * The name of the directory, in the node's stage directory, that holds the
 * child run of this visit of the node (`prefix` is `run` for a sub-pipeline,
 * `child` for a manager loop): `<prefix>-<n>` for the node's n-th visit. In
 * a parallel branch, `<prefix>-<v>.<n>`: the n-th visit in the branch
 * started by the fan-out node's v-th visit, so a fan-out run again starts
 * new children. The same visit always gets the same name, which is how a
 * resumed parent finds the child run to resume.
 */
export function childRunName(prefix: string, input: Pick<HandlerInput, 'node' | 'run'>): string {
  const visit = input.run.completedNodes.filter((id) => id === input.node.id).length + 1;
  return input.run.branch ? `${prefix}-${input.run.branch.visit}.${visit}` : `${prefix}-${visit}`;
}
