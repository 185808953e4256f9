import type { StreamEvent } from './types.js';

/** A role of a conference stage as its events tell it: started, and how it ended once it has. */
export interface RoleProgress {
  role: string;
  tier: string;
  /** `answered`, `abstained` or `ungrounded` once the role completed. */
  status: string | null;
}

/** A conference stage of a run, from the run's events. */
export interface ConferenceStage {
  nodeId: string;
  /**
   * How many events said its record may have changed (`conference.role.completed`,
   * and the stage's end: `stage.completed`, `stage.failed`): the panel reads the
   * record again each time this grows.
   */
  updates: number;
  /** The roles under way or done in the latest visit, in the order they started. */
  roles: RoleProgress[];
}

const str = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The conference stages of a run, in the order they first started: nodes
 * whose `stage.started` names the handler type `conference`, or that emitted
 * `conference.role.*` events.
 */
export function conferenceStages(events: readonly StreamEvent[]): ConferenceStage[] {
  const stages = new Map<string, ConferenceStage>();
  const stageOf = (nodeId: string): ConferenceStage => {
    let stage = stages.get(nodeId);
    if (!stage) {
      stage = { nodeId, updates: 0, roles: [] };
      stages.set(nodeId, stage);
    }
    return stage;
  };
  for (const { type, data } of events) {
    const nodeId = str(data.nodeId);
    if (!nodeId) continue;
    if (type === 'stage.started') {
      if (data.handlerType === 'conference') stageOf(nodeId).roles = []; // a new visit
      continue;
    }
    const known = stages.get(nodeId);
    if ((type === 'stage.completed' || type === 'stage.failed') && known) known.updates += 1;
    if (!type.startsWith('conference.role.')) continue;
    const stage = stageOf(nodeId);
    const role = str(data.role) ?? '?';
    if (type === 'conference.role.started') {
      stage.roles = [...stage.roles.filter((r) => r.role !== role), { role, tier: str(data.tier) ?? '', status: null }];
    } else if (type === 'conference.role.completed') {
      stage.updates += 1;
      const status = str(data.status);
      const found = stage.roles.find((r) => r.role === role);
      if (found) found.status = status;
      else stage.roles.push({ role, tier: '', status });
    }
  }
  return [...stages.values()];
}
