/**
 * A scripted Ollama chat API server for tests: the twin of the scripted
 * OpenAI-compatible server, scripted with the same steps.
 * @packageDocumentation
 */
export {
  startScriptedOllamaServer,
  type ScriptedOllamaServer,
  type ScriptedOllamaServerOptions,
} from './server.js';
export type { OllamaErrorBody } from './error-body.js';
export type {
  OllamaMessage,
  OllamaRecordedRequest,
  OllamaResponder,
  OllamaTool,
  OllamaToolCall,
  OllamaTranscriptEntry,
} from './types.js';
