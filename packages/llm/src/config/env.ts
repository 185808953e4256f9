/** Environment variables as orchestra reads them (pass `process.env`, or a fixed map in tests). */
export type Env = Readonly<Record<string, string | undefined>>;

/** The value of an environment variable, or undefined when it is unset or blank. */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
