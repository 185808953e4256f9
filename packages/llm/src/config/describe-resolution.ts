import { maskKey } from './mask-key.js';
import type { ResolvedModel } from './resolved-model.js';

function formatMs(ms: number): string {
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1_000]] as const) {
    if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/**
 * The resolution as lines for `orchestra doctor`, each value with its source:
 * backend, model (`alias → id`), provider, base URL, API key (masked), and
 * the model options when any is set.
 */
export function describeResolution(resolved: ResolvedModel): string[] {
  const { sources, provider } = resolved;
  const model = resolved.model === undefined ? '(none)' : resolved.alias !== undefined ? `${resolved.alias} → ${resolved.model}` : resolved.model;
  const lines = [
    `backend: ${resolved.backend} (${sources.backend})`,
    `model: ${model} (${sources.model})`,
    `provider: ${provider.name} (${sources.provider})`,
    `base URL: ${provider.baseUrl} (${sources.baseUrl})`,
    `API key: ${maskKey(provider.apiKey)} (${sources.apiKey})`,
  ];
  const options = [
    resolved.reasoningEffort !== undefined && `reasoning_effort=${resolved.reasoningEffort}`,
    resolved.temperature !== undefined && `temperature=${resolved.temperature}`,
    resolved.maxTokens !== undefined && `max_tokens=${resolved.maxTokens}`,
    provider.timeoutMs !== undefined && `timeout=${formatMs(provider.timeoutMs)}`,
    Object.keys(provider.headers).length > 0 && `headers=${Object.keys(provider.headers).join(',')}`,
  ].filter((o): o is string => typeof o === 'string');
  if (options.length > 0) lines.push(`options: ${options.join(', ')}`);
  return lines;
}
