/**
 * The event names the run stream sends (`event:` of each server-sent
 * event). An EventSource delivers a named event only to a listener for that
 * name, so the page listens for each: the run events of docs/events.md, the
 * server's own `questions`, and `message` (a recorded line without a type).
 */
export const RUN_EVENT_TYPES = [
  'pipeline.started',
  'pipeline.completed',
  'pipeline.failed',
  'pipeline.parked',
  'pipeline.interrupted',
  'pipeline.restarted',
  'run.orphans_stopped',
  'run.orphans_unverified',
  'stage.started',
  'stage.completed',
  'stage.failed',
  'stage.retrying',
  'edge.selected',
  'goal_gate.unsatisfied',
  'checkpoint.saved',
  'parallel.started',
  'parallel.branch_started',
  'parallel.branch_completed',
  'parallel.completed',
  'interview.started',
  'interview.completed',
  'interview.timeout',
  'human.interaction',
  'conversation.reply',
  'conversation.resumed',
  'conversation.ended',
  'llm.response',
  'agent.tool_call',
  'conference.role.started',
  'conference.role.rejected',
  'conference.role.completed',
  'message',
] as const;

/** Events after which the picture may have changed. */
export function changesPicture(type: string): boolean {
  return type.startsWith('stage.') || type.startsWith('pipeline.') || type.startsWith('checkpoint.');
}

/** Events after which the run's summary (state, questions, conversations) may have changed. */
export function changesSummary(type: string): boolean {
  return (
    changesPicture(type) ||
    type === 'questions' ||
    type.startsWith('interview.') ||
    type.startsWith('conversation.') ||
    type === 'human.interaction'
  );
}
