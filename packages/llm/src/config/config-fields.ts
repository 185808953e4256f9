import { parseDuration } from '@orchestra/core/loader';
import { z } from 'zod';

// Field schemas of orchestra.yaml. Messages that start with "expected" get
// ", got <value>" appended when the error is reported (see issue-message.ts).

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The usual spelling of a variable name: capitals, digits and `_` (`XAI_API_KEY`, `HF_TOKEN`). */
const UPPER_ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** Vendor key prefixes as keys are written (lower case: `sk-...`, `gsk_...`, `hf_...`). */
const KEY_PREFIX = /^(sk|pk|rk|gsk|xai|hf)[-_]/;

/**
 * Whether a value written where an environment variable's *name* belongs looks
 * like a secret instead: a known key prefix as keys are written (`sk-`,
 * `gsk_`, `hf_`, ...), a long value that is not a variable name, or a long
 * mixed-case alphanumeric token. A name in capitals (`XAI_API_KEY`,
 * `HF_TOKEN`) is always a name.
 */
export function looksLikeApiKey(value: string): boolean {
  if (UPPER_ENV_NAME.test(value)) return false;
  if (KEY_PREFIX.test(value)) return true;
  if (!ENV_NAME.test(value)) return value.length >= 16;
  return value.length >= 32 && /[a-z]/.test(value) && /[A-Z]/.test(value) && /[0-9]/.test(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const DURATION = 'expected a duration like 250ms, 30s, 5m or 2h';

/** A duration as written (`250ms`, `30s`, `5m`, `2h`, `1d`); read it with `parseDuration`. */
export const durationField = z.string({ error: DURATION }).refine((text) => parseDuration(text) !== undefined, { error: DURATION });

/** A non-empty string. */
export const nameField = (what: string) => z.string({ error: `expected ${what}` }).min(1, { error: `expected ${what}` });

/** An integer ≥ `min`. */
export const integerField = (min: number) => {
  const expected = `expected an integer ≥ ${min}`;
  return z.number({ error: expected }).int({ error: expected }).min(min, { error: expected });
};

/** `true` or `false`. */
export const booleanField = z.boolean({ error: 'expected true or false' });

/** An http(s) URL. */
export const urlField = z
  .string({ error: 'expected an http(s) URL like https://api.openai.com/v1' })
  .refine(isHttpUrl, { error: 'expected an http(s) URL like https://api.openai.com/v1' });

const API_KEY_MESSAGE =
  'this looks like an API key, not the name of an environment variable: never write the key here; put it in an environment variable (export OPENAI_API_KEY=...) and write the variable\'s name (api_key_env: OPENAI_API_KEY)';

/** The NAME of the environment variable holding an API key; never the key itself. */
export const envNameField = z.string({ error: 'expected the name of an environment variable, like OPENAI_API_KEY' }).superRefine((value, ctx) => {
  if (looksLikeApiKey(value)) ctx.addIssue({ code: 'custom', message: API_KEY_MESSAGE });
  else if (!ENV_NAME.test(value)) ctx.addIssue({ code: 'custom', message: 'expected the name of an environment variable (letters, digits and _), like OPENAI_API_KEY' });
});

/** An argument vector: a non-empty list of non-empty strings. A single string is refused (no shell ever splits it). */
export const argvField = z
  .array(nameField('a non-empty string'), {
    error: (issue) =>
      typeof issue.input === 'string'
        ? 'a single string is not allowed here: write the command as a list of arguments, e.g. [claude, -p] (no shell is used, so a string is never split into words)'
        : 'expected a list of arguments like [claude, -p]',
  })
  .min(1, { error: 'expected at least one argument (the program to run), got an empty list' });

/** `name: choice` for a closed set of words. */
export const choiceField = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` });

/** A number in `[min, max]`. */
export const rangeField = (min: number, max: number) => {
  const expected = `expected a number from ${min} to ${max}`;
  return z.number({ error: expected }).min(min, { error: expected }).max(max, { error: expected });
};
