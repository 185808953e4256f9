import { isOrchestraError, resolveHandlerType, type Diagnostic, type Graph } from '@orchestra/core/loader';
import { namedProviders } from '../config-needs.js';
import { hasRunConfig, loadRunConfig } from '../llm-backend.js';

/**
 * What `validate` checks against the orchestra.yaml that applies to a
 * pipeline (none found: an empty configuration):
 *
 * - `conference_role` (error): each role a conference node names in
 *   `conference.roles` is defined under `roles:` (not checked without an
 *   orchestra.yaml: the roles may come with the run's configuration);
 * - `known_provider` (warning): each provider a node names (`llm_provider`,
 *   or a phase's, as written or set by the stylesheet) is built in or
 *   configured under `providers:`; a run stops at that node otherwise.
 *
 * Gives the configuration's own error message when it cannot be loaded.
 */
export async function configDiagnostics(graph: Graph, pipelineFile: string): Promise<Diagnostic[] | string> {
  const { emptyConfig, knownProviders, unknownRoleMessage } = await import('@orchestra/llm/config');
  const found = await hasRunConfig(pipelineFile);
  let config;
  try {
    config = found ? await loadRunConfig(pipelineFile) : emptyConfig(process.cwd());
  } catch (error) {
    if (isOrchestraError(error)) return error.message;
    throw error;
  }
  const out: Diagnostic[] = [];
  const known = knownProviders(config.config);
  for (const node of graph.nodes.values()) {
    const where = { nodeId: node.id, ...(node.location ? { location: node.location } : {}) };
    for (const { attribute, name } of namedProviders(node)) {
      if (known.includes(name)) continue;
      const configured = found ? `configured in ${config.files[0] ?? 'orchestra.yaml'} (known: ${known.join(', ')})` : 'configured (no orchestra.yaml applies to this pipeline)';
      out.push({
        rule: 'known_provider',
        severity: 'warning',
        message: `node ${node.id}: ${attribute}=${JSON.stringify(name)} names a provider that is neither built in nor ${configured}; a run stops at this node unless providers.${name} is added to orchestra.yaml`,
        ...where,
      });
    }
    if (!found || resolveHandlerType(node) !== 'conference') continue;
    for (const name of (node.attributes['conference.roles'] ?? '').split(',').map((r) => r.trim()).filter(Boolean)) {
      const unknown = unknownRoleMessage(config, name);
      if (unknown) out.push({ rule: 'conference_role', severity: 'error', message: `conference node ${node.id}: ${unknown}`, ...where });
    }
  }
  return out;
}
