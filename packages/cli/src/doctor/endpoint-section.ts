import type { CliIO } from '../io.js';
import { checkEndpoint, type EndpointTarget } from './check-endpoint.js';
import { modelListLines } from './model-list-lines.js';

/**
 * Prints the `Endpoints:` section of `orchestra doctor`: each endpoint with
 * `✓` or `✗` and one line saying what it answered, then the models it lists
 * (at most `MODEL_LIST_LIMIT`, escaped). With `offline`, only names them.
 * Returns how many failed their check.
 */
export async function printEndpoints(targets: readonly EndpointTarget[], options: { offline?: boolean }, io: CliIO): Promise<number> {
  if (targets.length === 0) return 0;
  io.stdout(`\nEndpoints${options.offline ? ' (not contacted: --offline)' : ''}:\n`);
  let problems = 0;
  for (const target of targets) {
    const { name, baseUrl } = target.provider;
    if (options.offline) {
      io.stdout(`  - ${name} ${baseUrl}\n`);
      continue;
    }
    const check = await checkEndpoint(target);
    if (!check.ok) problems++;
    io.stdout(`  ${check.ok ? '✓' : '✗'} ${name} ${baseUrl}: ${check.message}\n`);
    for (const line of modelListLines(check.models ?? [])) io.stdout(`      ${line}\n`);
  }
  return problems;
}

/** Adds an endpoint to `targets` (keyed by provider and URL), or the wanted model to the one already there. */
export function addTarget(targets: Map<string, EndpointTarget>, endpoint: Omit<EndpointTarget, 'wanted'>, model?: string): void {
  const key = `${endpoint.provider.name} ${endpoint.provider.baseUrl}`;
  const known = targets.get(key);
  const wanted = [...(known?.wanted ?? [])];
  if (model !== undefined && !wanted.includes(model)) wanted.push(model);
  const { provider, sources } = known ?? endpoint;
  targets.set(key, { provider, sources: { baseUrl: sources.baseUrl, apiKey: sources.apiKey }, wanted });
}
