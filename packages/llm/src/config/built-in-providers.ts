/** The APIs orchestra speaks to models through: OpenAI's Chat Completions (and every compatible server), Anthropic's Messages, Google's Gemini API, Ollama's. */
export const PROVIDER_KINDS = ['openai', 'anthropic', 'gemini', 'ollama'] as const;

/** One of {@link PROVIDER_KINDS}. */
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** A provider orchestra knows without configuration. */
export interface BuiltInProvider {
  kind: ProviderKind;
  /** The environment variable that replaces its base URL. */
  baseUrlEnv: string;
  defaultBaseUrl: string;
  /** The environment variables its key is read from, the first set one winning; none for a provider without keys. */
  apiKeyEnvs: readonly string[];
  /** The host of the provider's own service: a key is required there, not for another server of the same API. */
  officialHost?: string;
}

/** The providers a pipeline may name without an `orchestra.yaml` entry (an entry of the same name changes them). */
export const BUILT_IN_PROVIDERS: Readonly<Record<string, BuiltInProvider>> = {
  openai: { kind: 'openai', baseUrlEnv: 'OPENAI_BASE_URL', defaultBaseUrl: 'https://api.openai.com/v1', apiKeyEnvs: ['OPENAI_API_KEY'], officialHost: 'api.openai.com' },
  anthropic: { kind: 'anthropic', baseUrlEnv: 'ANTHROPIC_BASE_URL', defaultBaseUrl: 'https://api.anthropic.com', apiKeyEnvs: ['ANTHROPIC_API_KEY'], officialHost: 'api.anthropic.com' },
  gemini: { kind: 'gemini', baseUrlEnv: 'GEMINI_BASE_URL', defaultBaseUrl: 'https://generativelanguage.googleapis.com', apiKeyEnvs: ['GEMINI_API_KEY', 'GOOGLE_API_KEY'], officialHost: 'generativelanguage.googleapis.com' },
  ollama: { kind: 'ollama', baseUrlEnv: 'OLLAMA_HOST', defaultBaseUrl: 'http://127.0.0.1:11434', apiKeyEnvs: [] },
};

/** The built-in provider named `name`, if there is one. */
export function builtInProvider(name: string): BuiltInProvider | undefined {
  return Object.hasOwn(BUILT_IN_PROVIDERS, name) ? BUILT_IN_PROVIDERS[name] : undefined;
}

/** Model id prefixes that name their family's provider, when a stage names no provider. */
const FAMILIES: readonly [RegExp, string][] = [
  [/^claude-/i, 'anthropic'],
  [/^gemini-/i, 'gemini'],
];

/** The provider a model id names by its family (`claude-*`: anthropic, `gemini-*`: gemini), if it names one. */
export function familyProvider(model: string | undefined): string | undefined {
  if (model === undefined) return undefined;
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1];
}
