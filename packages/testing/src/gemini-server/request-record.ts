import type {
  GeminiContent,
  GeminiFunctionDeclaration,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRecordedRequest,
  GeminiTool,
  GeminiToolConfig,
  GeminiTranscriptCall,
  GeminiTranscriptEntry,
  GeminiTranscriptResponse,
} from './types.js';

/** A {@link GeminiRecordedRequest} the server may still update. */
export type MutableGeminiRecord = { -readonly [K in keyof GeminiRecordedRequest]: GeminiRecordedRequest[K] };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parts of a content (none when it has no array of parts). */
function partsOf(content: unknown): GeminiPart[] {
  const parts = isObject(content) ? content['parts'] : undefined;
  return Array.isArray(parts) ? parts.filter(isObject) : [];
}

/** The text parts of a content (thoughts excluded) joined with newlines. */
export function partsText(content: unknown): string {
  return partsOf(content)
    .filter((part) => typeof part.text === 'string' && part.text !== '' && part.thought !== true)
    .map((part) => part.text)
    .join('\n');
}

/** A function response's result as text: `result` or `output` when a string, else the response as JSON. */
function responseText(response: unknown): string {
  if (isObject(response)) {
    for (const key of ['result', 'output']) {
      const value = response[key];
      if (typeof value === 'string') return value;
    }
  }
  return response === undefined ? '' : JSON.stringify(response);
}

/** A content flattened to its text, function calls and function responses. */
export function transcriptEntry(content: GeminiContent): GeminiTranscriptEntry {
  const parts = partsOf(content);
  const entry: GeminiTranscriptEntry = { role: typeof content?.role === 'string' ? content.role : 'user', text: partsText(content) };
  const functionCalls: GeminiTranscriptCall[] = parts
    .filter((part) => isObject(part.functionCall))
    .map(({ functionCall }) => ({
      name: String(functionCall?.name),
      args: functionCall?.args ?? {},
      ...(typeof functionCall?.id === 'string' ? { id: functionCall.id } : {}),
    }));
  const functionResponses: GeminiTranscriptResponse[] = parts
    .filter((part) => isObject(part.functionResponse))
    .map(({ functionResponse }) => ({
      name: String(functionResponse?.name),
      response: functionResponse?.response,
      text: responseText(functionResponse?.response),
      ...(typeof functionResponse?.id === 'string' ? { id: functionResponse.id } : {}),
    }));
  if (functionCalls.length > 0) entry.functionCalls = functionCalls;
  if (functionResponses.length > 0) entry.functionResponses = functionResponses;
  return entry;
}

/** The text a content counts for usage: its text, and the text of its function responses. */
export function countedText(content: GeminiContent): string {
  const entry = transcriptEntry(content);
  return [entry.text, ...(entry.functionResponses ?? []).map((response) => response.text)].filter((text) => text !== '').join('\n');
}

/** Text of the last `user` content that has text, or `undefined` when there is none. */
export function lastUserText(contents: readonly GeminiContent[] | undefined): string | undefined {
  const last = contents?.findLast((content) => (content?.role ?? 'user') === 'user' && partsText(content) !== '');
  return last === undefined ? undefined : partsText(last);
}

/**
 * The convenience fields of a generate request body (left out when absent):
 * contents and their transcript, system instruction, tools and their function
 * declarations, tool config, generation config and the last user text.
 */
export function generateFields(body: unknown): Partial<MutableGeminiRecord> {
  if (!isObject(body)) return {};
  const contents = Array.isArray(body['contents']) ? (body['contents'] as GeminiContent[]) : undefined;
  const fields: Partial<MutableGeminiRecord> = {};
  if (contents) {
    fields.contents = contents;
    fields.transcript = contents.map(transcriptEntry);
  }
  const system = body['systemInstruction'];
  if (typeof system === 'string') fields.system = system;
  else if (isObject(system)) fields.system = partsText(system);
  if (Array.isArray(body['tools'])) {
    const tools = body['tools'] as GeminiTool[];
    fields.tools = tools;
    fields.functionDeclarations = tools.flatMap((tool) =>
      isObject(tool) && Array.isArray(tool.functionDeclarations) ? (tool.functionDeclarations as GeminiFunctionDeclaration[]) : [],
    );
  }
  if (isObject(body['toolConfig'])) fields.toolConfig = body['toolConfig'] as GeminiToolConfig;
  if (isObject(body['generationConfig'])) fields.generationConfig = body['generationConfig'] as GeminiGenerationConfig;
  const userText = lastUserText(contents);
  if (userText !== undefined) fields.lastUserText = userText;
  return fields;
}
