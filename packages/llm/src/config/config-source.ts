import { formatKeyPath, type KeyPath } from './key-path.js';
import type { LoadedConfig } from './load-config.js';

/** A configuration value's source in words: `/x/orchestra.yaml:12:12 defaults.model`. */
export function configSource(loaded: LoadedConfig, path: KeyPath): string {
  const where = loaded.where(path);
  return where ? `${where} ${formatKeyPath(path)}` : `${formatKeyPath(path)} in orchestra.yaml`;
}
