/**
 * Which API a chat model speaks (`openai`, `anthropic`, `gemini`, `ollama`),
 * reported by `callModel` with every call (`llm.response`'s `provider`),
 * wherever the call is made from. The model backend records it beside the
 * client it makes ({@link setModelProvider}); a copy with tools bound
 * (LangChain's `bindTools` makes a new instance) is known by the provider
 * LangChain itself names (`getLsParams().ls_provider`), else by the
 * `model_provider` of the reply's metadata.
 */
const providers = new WeakMap<object, string>();

/** The providers LangChain names that orchestra speaks to, as orchestra names them (anything else, a fake model's class name say, is not taken). */
const LANGCHAIN_NAMES: Readonly<Record<string, string>> = {
  openai: 'openai',
  anthropic: 'anthropic',
  ollama: 'ollama',
  google_genai: 'gemini',
  'google-genai': 'gemini',
  gemini: 'gemini',
};

/** The model under a RunnableBinding (`withConfig`, some `bindTools`): `bound`, a few levels down at most. */
function* layers(model: unknown): Generator<object> {
  let current = model;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    yield current;
    current = (current as { bound?: unknown }).bound;
  }
}

/** Records that `model` speaks `provider`'s API. */
export function setModelProvider(model: object, provider: string): void {
  providers.set(model, provider);
}

function recorded(model: unknown): string | undefined {
  for (const layer of layers(model)) {
    const found = providers.get(layer);
    if (found) return found;
  }
  return undefined;
}

function langChainProvider(model: unknown): string | undefined {
  for (const layer of layers(model)) {
    const getLsParams = (layer as { getLsParams?: unknown }).getLsParams;
    if (typeof getLsParams !== 'function') continue;
    try {
      const provider = (getLsParams.call(layer, {}) as { ls_provider?: unknown } | undefined)?.ls_provider;
      return typeof provider === 'string' ? LANGCHAIN_NAMES[provider] : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The API `model` speaks, as recorded, else as LangChain names it, else as its reply's metadata (`replyMetadata`) says; undefined when none does. */
export function modelProvider(model: object, replyMetadata?: Record<string, unknown>): string | undefined {
  const fromReply = replyMetadata?.model_provider;
  return recorded(model) ?? langChainProvider(model) ?? (typeof fromReply === 'string' ? LANGCHAIN_NAMES[fromReply] : undefined);
}
