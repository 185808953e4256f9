/**
 * Names always removed from a command's environment: API keys, tokens,
 * secrets, passwords and credentials (`OPENAI_API_KEY`, `GITHUB_TOKEN`,
 * `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, ...).
 */
export const SECRET_ENV_NAME = /(^|_)(API_KEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|PASSWORD|CREDENTIALS)$/i;

/**
 * A copy of `env` without the names in `scrub` and without any name that
 * looks like a secret ({@link SECRET_ENV_NAME}): what a model's command runs
 * with, so it cannot read the keys orchestra itself uses.
 */
export function commandEnvironment(env: NodeJS.ProcessEnv, scrub: readonly string[] = []): NodeJS.ProcessEnv {
  const removed = new Set(scrub);
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || removed.has(name) || SECRET_ENV_NAME.test(name)) continue;
    out[name] = value;
  }
  return out;
}
