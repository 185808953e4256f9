/** Header and field names that carry credentials: dropped from anything recorded. */
const CREDENTIAL_KEYS = /^(authorization|proxy-authorization|x-api-key|x-goog-api-key|api[-_]?key|apikey)$/i;

/** What replaces a secret's value in a recording. */
export const REDACTED = '[redacted]';

/**
 * A copy of a JSON value with credentials removed: every object key that
 * names one (`Authorization`, `x-api-key`, `api_key`, ...) is dropped and
 * every occurrence of a secret value (an API key from the environment) in a
 * string is replaced by {@link REDACTED}. Values shorter than 4 characters
 * are not treated as secrets (they would blank ordinary text).
 */
export function scrubSecrets(value: unknown, secrets: readonly string[]): unknown {
  const values = [...new Set(secrets.filter((s) => s.length >= 4))].sort((a, b) => b.length - a.length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let out = v;
      for (const secret of values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
      return out;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [key, inner] of Object.entries(v)) if (!CREDENTIAL_KEYS.test(key)) out[key] = walk(inner);
      return out;
    }
    return v;
  };
  return walk(value);
}
