import { simulationBackend, type CodergenBackend } from '@orchestra/core';
import type { ConferenceBackend } from '@orchestra/core/handlers';
import { conferenceRoles } from './conference-roles.js';
import type { LoadedConfig } from './load-config.js';

/**
 * The `--simulate` backend with the roles of `roles:` when the
 * configuration defines any: conferences and recipe steps are simulated
 * with each role's contract and tier (a T1 role's three calls, a T5 role's
 * richer prompt), and a role it does not define is refused before the run,
 * as with a model. A role that must quote a file cites the simulated
 * receipt instead (the simulated chief reads no file, so there is nothing
 * to quote). Without `roles:` it is the plain simulation.
 */
export function simulationWithRoles(config: LoadedConfig): CodergenBackend {
  if (!config.config.roles || Object.keys(config.config.roles).length === 0) return simulationBackend;
  const base = simulationBackend.conference as ConferenceBackend;
  const roles = (names: readonly string[], node: Parameters<ConferenceBackend['roles']>[1]) => conferenceRoles(config, names, node).map((r) => (r.evidence === 'quote' ? { ...r, evidence: 'receipt' as const } : r));
  return { ...simulationBackend, conference: { ...base, roles } };
}
