import { isOrchestraError, resolveHandlerType, type Diagnostic, type Graph } from '@orchestra/core/loader';
import { hasRunConfig, loadRunConfig } from '../llm-backend.js';

/**
 * `conference_role` (error): each role a conference node names in
 * `conference.roles` is defined under `roles:` in the orchestra.yaml that
 * applies to the pipeline. Nothing is checked when no orchestra.yaml is
 * found (the roles may come with the run's configuration). Gives the
 * configuration's own error message when it cannot be loaded.
 */
export async function conferenceRoleDiagnostics(graph: Graph, pipelineFile: string): Promise<Diagnostic[] | string> {
  const conferences = [...graph.nodes.values()].filter((node) => resolveHandlerType(node) === 'conference');
  if (conferences.length === 0 || !(await hasRunConfig(pipelineFile))) return [];
  const { unknownRoleMessage } = await import('@orchestra/llm/config');
  let config;
  try {
    config = await loadRunConfig(pipelineFile);
  } catch (error) {
    if (isOrchestraError(error)) return error.message;
    throw error;
  }
  const out: Diagnostic[] = [];
  for (const node of conferences) {
    for (const name of (node.attributes['conference.roles'] ?? '').split(',').map((r) => r.trim()).filter(Boolean)) {
      const unknown = unknownRoleMessage(config, name);
      if (!unknown) continue;
      out.push({ rule: 'conference_role', severity: 'error', message: `conference node ${node.id}: ${unknown}`, nodeId: node.id, ...(node.location ? { location: node.location } : {}) });
    }
  }
  return out;
}
