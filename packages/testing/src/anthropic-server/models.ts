/** `created_at` of every listed model (a fixed date keeps answers deterministic; the OpenAI server's `created`). */
const MODEL_CREATED_AT = '2023-11-14T22:13:20Z';

/** A model object as `GET /v1/models` of the Anthropic API lists it. */
export function anthropicModelObject(id: string): { type: 'model'; id: string; display_name: string; created_at: string } {
  return { type: 'model', id, display_name: id, created_at: MODEL_CREATED_AT };
}

/** The body of `GET /v1/models`: one page holding every model. */
export function anthropicModelList(ids: readonly string[]): {
  data: ReturnType<typeof anthropicModelObject>[];
  has_more: false;
  first_id: string | null;
  last_id: string | null;
} {
  return { data: ids.map(anthropicModelObject), has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}
