import { BUILT_IN_PROVIDER, type OrchestraConfig } from './config-schema.js';

/** Provider names a pipeline may use: the built-in `openai` first, then the configured ones in file order. */
export function knownProviders(config: OrchestraConfig): string[] {
  const names = Object.keys(config.providers ?? {});
  return [BUILT_IN_PROVIDER, ...names.filter((name) => name !== BUILT_IN_PROVIDER)];
}

/** Whether `name` is configured or built in. */
export function isKnownProvider(config: OrchestraConfig, name: string): boolean {
  return name === BUILT_IN_PROVIDER || Object.hasOwn(config.providers ?? {}, name);
}
