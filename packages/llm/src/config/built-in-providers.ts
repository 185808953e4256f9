/** The APIs orchestra speaks to models through: OpenAI's Chat Completions (and every compatible server), Anthropic's Messages. */
export const PROVIDER_KINDS = ['openai', 'anthropic'] as const;

/** One of {@link PROVIDER_KINDS}. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** A provider orchestra knows without configuration. */
export interface BuiltInProvider {
  kind: ProviderKind;
  /** The environment variable that replaces its base URL. */
  baseUrlEnv: string;
  defaultBaseUrl: string;
  /** The environment variable its key is read from. */
  apiKeyEnv: string;
  /** The host of the provider's own service: a key is required there, not for another server of the same API. */
  officialHost: string;
}

/** The providers a pipeline may name without an `orchestra.yaml` entry (an entry of the same name changes them). */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  openai: { kind: 'openai', baseUrlEnv: 'OPENAI_BASE_URL', defaultBaseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', officialHost: 'api.openai.com' },
  anthropic: { kind: 'anthropic', baseUrlEnv: 'ANTHROPIC_BASE_URL', defaultBaseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY', officialHost: 'api.anthropic.com' },
};

/** The built-in provider named `name`, if there is one. */
export function builtInProvider(name: string): BuiltInProvider | undefined {
  return Object.hasOwn(BUILT_IN_PROVIDERS, name) ? BUILT_IN_PROVIDERS[name] : undefined;
}

/** Model id prefixes that name their family's provider, when a stage names no provider. */
const FAMILIES: readonly [RegExp, string][] = [[/^claude-/i, 'anthropic']];

/** The provider a model id names by its family (`claude-*`: anthropic), if it names one. */
export function familyProvider(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1];
}
