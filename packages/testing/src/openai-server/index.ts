/**
 * A scripted OpenAI-compatible HTTP server for tests: real clients, no network.
 * @packageDocumentation
 */
export {
  startScriptedOpenAIServer,
  type ScriptedOpenAIServer,
  type ScriptedOpenAIServerOptions,
} from './server.js';
export {
  dropConnection,
  httpError,
  reply,
  toolCall,
  toolCalls,
  type HttpErrorOptions,
  type ReplyOptions,
  type ToolCallsOptions,
} from './steps.js';
export { scriptConversation, type ConversationTurn, type ScriptedConversation } from './conversation.js';
export type {
  ChatContentPart,
  ChatMessage,
  ChatToolCall,
  DropStep,
  ErrorStep,
  RecordedRequest,
  ReplyStep,
  RequestOutcome,
  Responder,
  ScriptStep,
  ScriptedToolCall,
  ToolCallsStep,
  Usage,
} from './types.js';
