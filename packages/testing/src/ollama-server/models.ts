/** `modified_at` of every listed model (a fixed date keeps answers deterministic). */
const MODIFIED_AT = '2023-11-14T22:13:20Z';

/** `version` answered by `GET /api/version` unless the options name one. */
export const DEFAULT_OLLAMA_VERSION = '0.12.6';

/** The name Ollama lists a model under: with its tag, `:latest` when it has none. */
export function taggedName(id: string): string {
  return id.includes(':') ? id : `${id}:latest`;
}

/** A model as `GET /api/tags` lists it (made-up size, digest and details). */
export function ollamaModelObject(id: string): Record<string, unknown> {
  const name = taggedName(id);
  return {
    name,
    model: name,
    modified_at: MODIFIED_AT,
    size: 4_000_000_000,
    digest: '0'.repeat(64),
    details: {
      parent_model: '',
      format: 'gguf',
      family: 'scripted',
      families: ['scripted'],
      parameter_size: '7B',
      quantization_level: 'Q4_K_M',
    },
  };
}

/** The body of `GET /api/tags`. */
export function ollamaModelList(ids: readonly string[]): { models: Record<string, unknown>[] } {
  return { models: ids.map(ollamaModelObject) };
}
