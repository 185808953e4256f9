/** A path into the configuration: object keys and list indexes, e.g. `['agent', 'tools', 2]`. */
export type KeyPath = readonly (string | number)[];

const PLAIN_KEY = /^[A-Za-z0-9_-]+$/;

/**
 * A key path as a user reads it: `models.smart.provider`, `agent.tools[2]`,
 * `providers["my.server"].base_url` (keys that are not plain words are quoted).
 */
export function formatKeyPath(path: KeyPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
