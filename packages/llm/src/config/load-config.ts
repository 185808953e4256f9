import { resolve } from 'node:path';
import { ConfigError, formatPosition, type ConfigPosition } from './config-error.js';
import { BUILT_IN_PROVIDERS, builtInProvider } from './built-in-providers.js';
import type { OrchestraConfig } from './config-schema.js';
import { findConfigFiles, type ConfigSearch } from './discover-config.js';
import type { KeyPath } from './key-path.js';
import { mergeConfigs } from './merge-config.js';
import { readConfigFile, type ConfigLayer } from './parse-config-file.js';
import { isKnownProvider, knownProviders } from './provider-names.js';

/** The configuration in effect: every file found, layered. */
export interface LoadedConfig {
  /** The merged settings (snake_case as written; `agent.workspace` absolute). */
  readonly config: OrchestraConfig;
  /** Absolute paths of the files used, nearest first (empty when there is none). */
  readonly files: readonly string[];
  /** The working directory given to {@link loadConfig} (the default agent workspace). */
  readonly cwd: string;
  /** `file:line:col` of the value at `keyPath` in the file that supplies it; undefined when no file sets it. */
  where(keyPath: KeyPath): string | undefined;
  /** Like {@link LoadedConfig.where}, as a structured position. */
  locate(keyPath: KeyPath): ConfigPosition | undefined;
}

/** Options of {@link loadConfig}. */
export type LoadConfigOptions = ConfigSearch;

/**
 * The layer that supplies `path` in the merged result: the nearest file that
 * writes its first two segments (a provider or alias entry is taken whole
 * from one file; a section key from the nearest file that sets it).
 */
function owner(layers: readonly ConfigLayer[], path: KeyPath): ConfigLayer | undefined {
  const head = path.slice(0, 2);
  const layer = layers.find((l) => l.has(head));
  return layer?.has(path) ? layer : undefined;
}

function checkProvider(loaded: LoadedConfig, path: KeyPath, name: string | undefined): void {
  if (name === undefined || isKnownProvider(loaded.config, name)) return;
  const at = loaded.locate(path) ?? { file: loaded.files[0] ?? 'orchestra.yaml', line: 1, column: 1 };
  throw new ConfigError(at, path, `${JSON.stringify(name)} is not a configured provider (configured: ${knownProviders(loaded.config).join(', ')})`);
}

/**
 * Cross-checks of the merged configuration: every provider named by an alias
 * or `defaults.provider` exists, and every provider but the built-in `openai`
 * has a `base_url` (without one its key would be sent to OpenAI).
 */
function crossCheck(loaded: LoadedConfig): void {
  for (const [name, provider] of Object.entries(loaded.config.providers ?? {})) {
    if (builtInProvider(name) || provider?.base_url) continue;
    const path = ['providers', name];
    const at = loaded.locate(path) ?? { file: loaded.files[0] ?? 'orchestra.yaml', line: 1, column: 1 };
    throw new ConfigError(at, [...path, 'base_url'], `missing: a provider other than the built-in ones (${Object.keys(BUILT_IN_PROVIDERS).join(', ')}) needs the base URL of its API (e.g. base_url: http://127.0.0.1:11434/v1)`);
  }
  for (const [alias, entry] of Object.entries(loaded.config.models ?? {})) checkProvider(loaded, ['models', alias, 'provider'], entry.provider);
  checkProvider(loaded, ['defaults', 'provider'], loaded.config.defaults?.provider);
}

/**
 * Layers validated files (nearest first) into the configuration in effect and
 * runs the cross-checks. `cwd` is the default agent workspace.
 */
export function combineConfigLayers(layers: readonly ConfigLayer[], options: { cwd: string }): LoadedConfig {
  const locate = (keyPath: KeyPath): ConfigPosition | undefined => owner(layers, keyPath)?.position(keyPath);
  const loaded: LoadedConfig = {
    config: mergeConfigs(layers.map((l) => l.config)),
    files: layers.map((l) => l.file),
    cwd: resolve(options.cwd),
    where: (keyPath) => {
      const at = locate(keyPath);
      return at && formatPosition(at);
    },
    locate,
  };
  crossCheck(loaded);
  return loaded;
}

/** No configuration at all: every setting takes its default. */
export function emptyConfig(cwd: string): LoadedConfig {
  return combineConfigLayers([], { cwd });
}

/**
 * Finds and loads `orchestra.yaml` (or `.yml`) next to the pipeline, in `cwd`
 * and in `<home>/.orchestra/`, validates each file on its own, layers them
 * (nearer wins) and cross-checks the result. No file at all is an empty
 * configuration. Throws {@link ConfigError} (`ORCH_CONFIG`) on any problem.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const layers = findConfigFiles(options).map(readConfigFile);
  return combineConfigLayers(layers, { cwd: options.cwd });
}
