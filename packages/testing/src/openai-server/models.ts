/** `created` of every listed model (a fixed date keeps answers deterministic). */
const MODEL_CREATED = 1_700_000_000;

/** The model ids served when the options name none. */
export const DEFAULT_MODELS: readonly string[] = ['scripted-model'];

/** A model object as `GET /v1/models` lists it. */
export function modelObject(id: string): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id, object: 'model', created: MODEL_CREATED, owned_by: 'scripted' };
}

/** The body of `GET /v1/models`. */
export function modelList(ids: readonly string[]): { object: 'list'; data: ReturnType<typeof modelObject>[] } {
  return { object: 'list', data: ids.map(modelObject) };
}

/** The model id of a `/v1/models/{id}` path remainder, or `undefined` when it is not valid URL encoding. */
export function decodeModelId(encoded: string): string | undefined {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}
