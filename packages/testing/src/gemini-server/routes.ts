import { decodeModelId } from '../openai-server/models.js';

/** What a request path asks for. */
export type GeminiRoute =
  | { kind: 'generate'; apiVersion: string; model: string; stream: boolean }
  | { kind: 'list-models'; apiVersion: string }
  | { kind: 'get-model'; apiVersion: string; model: string }
  | { kind: 'unknown'; apiVersion?: string };

const API_VERSION = String.raw`(v\d+(?:alpha|beta)?\d*)`;
const GENERATE = new RegExp(`^/${API_VERSION}/models/([^/]+):(generateContent|streamGenerateContent)$`);
const LIST = new RegExp(`^/${API_VERSION}/models/?$`);
const GET = new RegExp(`^/${API_VERSION}/models/([^/:]+)$`);

/**
 * The route of a method and a path (without query): `POST
 * /{version}/models/{model}:generateContent` or `:streamGenerateContent`
 * (`@google/generative-ai` uses `v1beta` unless told another `apiVersion`),
 * `GET /{version}/models` and `GET /{version}/models/{model}`. A model id that
 * is not valid percent-encoding makes the route unknown.
 */
export function routeOf(method: string, path: string): GeminiRoute {
  const generate = GENERATE.exec(path);
  if (generate) {
    const [, apiVersion = '', encoded = '', task] = generate;
    const model = decodeModelId(encoded);
    if (method !== 'POST' || model === undefined) return { kind: 'unknown', apiVersion };
    return { kind: 'generate', apiVersion, model, stream: task === 'streamGenerateContent' };
  }
  if (method === 'GET') {
    const list = LIST.exec(path);
    if (list) return { kind: 'list-models', apiVersion: list[1] ?? '' };
    const get = GET.exec(path);
    const model = get ? decodeModelId(get[2] ?? '') : undefined;
    if (get && model !== undefined) return { kind: 'get-model', apiVersion: get[1] ?? '', model };
  }
  return { kind: 'unknown' };
}
