/**
 * A scripted Gemini API (Generative Language API) server for tests: the twin
 * of the scripted OpenAI-compatible server, scripted with the same steps.
 * @packageDocumentation
 */
export { startScriptedGeminiServer, type ScriptedGeminiServer, type ScriptedGeminiServerOptions } from './server.js';
export type { GeminiErrorBody } from './error-body.js';
export type { GeminiModelObject } from './models.js';
export type {
  GeminiContent,
  GeminiFunctionCall,
  GeminiFunctionDeclaration,
  GeminiFunctionResponse,
  GeminiGenerationConfig,
  GeminiPart,
  GeminiRecordedRequest,
  GeminiResponder,
  GeminiTool,
  GeminiToolConfig,
  GeminiTranscriptCall,
  GeminiTranscriptEntry,
  GeminiTranscriptResponse,
} from './types.js';
