import type { OrchestraConfig } from './config-schema.js';

/** Sections that are maps by name: entries merge by key, a nearer entry replacing a farther one whole. */
const MAP_SECTIONS = ['providers', 'models', 'roles'] as const;
/** Sections with fixed keys: each key merges on its own, the nearer value (scalar or list) winning. */
const OBJECT_SECTIONS = ['defaults', 'agent', 'cli_agent', 'interviewer', 'chat', 'conference', 'prices'] as const;

/**
 * Layers configurations, nearest first: `providers`, `models` and `roles` merge by
 * name (the nearer entry replaces the farther one as a whole, headers
 * included); in the other sections each key is taken from the nearest file
 * that sets it.
 */
export function mergeConfigs(nearestFirst: readonly OrchestraConfig[]): OrchestraConfig {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const config of [...nearestFirst].reverse()) {
    for (const name of [...MAP_SECTIONS, ...OBJECT_SECTIONS]) {
      const section = config[name];
      if (section) merged[name] = { ...merged[name], ...section };
    }
  }
  return merged as OrchestraConfig;
}
