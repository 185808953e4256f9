import { BUILT_IN_PROVIDERS } from './built-in-providers.js';
import type { OrchestraConfig } from './config-schema.js';

/** Provider names a pipeline may use: the built-in ones first (`openai`, `anthropic`), then the configured ones in file order. */
export function knownProviders(config: OrchestraConfig): string[] {
  const builtIn = Object.keys(BUILT_IN_PROVIDERS);
  return [...builtIn, ...Object.keys(config.providers ?? {}).filter((name) => !builtIn.includes(name))];
}

/** Whether `name` is configured or built in. */
export function isKnownProvider(config: OrchestraConfig, name: string): boolean {
  return Object.hasOwn(BUILT_IN_PROVIDERS, name) || Object.hasOwn(config.providers ?? {}, name);
}
