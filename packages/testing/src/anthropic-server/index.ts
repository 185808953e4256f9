/**
 * A scripted Anthropic Messages API server for tests: the twin of the
 * scripted OpenAI-compatible server, scripted with the same steps.
 * @packageDocumentation
 */
export {
  startScriptedAnthropicServer,
  type ScriptedAnthropicServer,
  type ScriptedAnthropicServerOptions,
} from './server.js';
export type { AnthropicErrorBody } from './error-body.js';
export type {
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicRecordedRequest,
  AnthropicResponder,
  AnthropicTool,
  AnthropicToolResult,
  AnthropicToolUse,
  AnthropicTranscriptEntry,
} from './types.js';
