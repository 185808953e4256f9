import { starterPackageFields, type StarterVersions } from './starter-files.js';

/** A `package.json` name from a directory name: lower case, npm's characters only. */
export function packageName(directoryName: string): string {
  const name = directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/^[._-]+|-+$/g, '')
    .slice(0, 214);
  return name || 'orchestra-project';
}

/** The starter project's whole `package.json`. */
export function newPackageJson(directoryName: string, versions: StarterVersions): string {
  const fields = starterPackageFields(versions);
  return `${JSON.stringify({ name: packageName(directoryName), private: true, type: 'module', ...fields }, null, 2)}\n`;
}

/** What {@link mergePackageJson} did to an existing `package.json`. */
export interface MergedPackageJson {
  text: string;
  /** Fields added, as `scripts.test`, `devDependencies.vitest`. */
  added: string[];
  /** Fields whose value was replaced, as `devDependencies.@orchestra/core (was ^0.1.0)`. */
  replaced: string[];
  /** Fields the starter wanted that were already there with another value, left alone. */
  kept: string[];
}

/** Which existing values {@link mergePackageJson} replaces instead of keeping. */
export type ReplaceRule = (section: string, key: string, existing: unknown) => boolean;

/**
 * Adds the starter's scripts and dev dependencies to an existing
 * `package.json`. A field already there keeps its value, unless `replace`
 * says to replace it (a dependency an earlier `orchestra init` wrote, or one
 * the command line names); every other field stays as it is. Returns an
 * error message when the text is not a JSON object.
 */
export function mergePackageJson(text: string, versions: StarterVersions, replace: ReplaceRule = () => false): MergedPackageJson | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `is not valid JSON (${(error as Error).message})`;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'does not hold a JSON object';
  const manifest = data as Record<string, unknown>;
  const added: string[] = [];
  const replaced: string[] = [];
  const kept: string[] = [];
  for (const [section, wanted] of Object.entries(starterPackageFields(versions))) {
    const existing = manifest[section];
    if (existing !== undefined && (typeof existing !== 'object' || existing === null || Array.isArray(existing))) {
      kept.push(section);
      continue;
    }
    const target = (existing ?? {}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(wanted)) {
      const current = target[key];
      if (current === undefined) {
        target[key] = value;
        added.push(`${section}.${key}`);
      } else if (current === value) continue;
      else if (replace(section, key, current)) {
        target[key] = value;
        replaced.push(`${section}.${key} (was ${String(current)})`);
      } else kept.push(`${section}.${key}`);
    }
    manifest[section] = target;
  }
  const indent = /^\{\s*\n(\s+)"/.exec(text)?.[1] ?? '  ';
  return { text: `${JSON.stringify(manifest, null, indent)}\n`, added, replaced, kept };
}
