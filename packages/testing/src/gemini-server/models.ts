/** A model resource as `GET /v1beta/models` of the Gemini API lists it. */
export interface GeminiModelObject {
  /** `models/<id>`. */
  name: string;
  version: string;
  displayName: string;
  description: string;
  inputTokenLimit: number;
  outputTokenLimit: number;
  supportedGenerationMethods: string[];
}

/** The model resource of an id (fixed limits keep answers deterministic). */
export function geminiModelObject(id: string): GeminiModelObject {
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: `Scripted model ${id}.`,
    inputTokenLimit: 1048576,
    outputTokenLimit: 65536,
    supportedGenerationMethods: ['generateContent', 'countTokens'],
  };
}

/** The body of `GET /v1beta/models`: one page holding every model (no `nextPageToken`). */
export function geminiModelList(ids: readonly string[]): { models: GeminiModelObject[] } {
  return { models: ids.map(geminiModelObject) };
}
