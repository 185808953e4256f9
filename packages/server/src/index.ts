/**
 * orchestra's server: the HTTP API of spec §9.5 (runs, server-sent events,
 * questions, checkpoints, pictures) with the web page, and SVG pictures of
 * pipelines through Graphviz compiled to WebAssembly.
 * @packageDocumentation
 */
export { nodeStates, type NodeState } from './render/node-states.js';
export { STATE_COLOURS, pictureGraph, renderPipelineSvg } from './render/pipeline-picture.js';
export { LAYOUT_ATTRIBUTES, pictureLayout, type PictureLayout } from './render/layout-attributes.js';
export { startServer, isLoopback, type RunningServer, type ServerOptions } from './serve.js';
export { createApp, type AppOptions } from './http/app.js';
export { AllowedHosts, LOOPBACK_HOSTS, parseHostPort, type HostEntry } from './http/allowed-hosts.js';
export { ServerRuns, type BackendFactory, type BackendRequest, type RunQuestion, type ServerRunsOptions, type StartRunRequest } from './runs/server-runs.js';
export { ApiError, type ErrorStatus } from './http/api-error.js';
export { apiErrorOf } from './http/errors.js';
/** The backends a server refuses without --allow-tools (from @orchestra/core, for the CLI's flag checks). */
export { TOOL_BACKENDS } from '@orchestra/core';
export type { QuestionJson, RunSummary } from './runs/run-summary.js';
export { TOKEN_COOKIE } from './http/auth.js';
export { DEFAULT_MAX_STREAM_QUEUE_BYTES, HEARTBEAT_MS } from './http/event-stream.js';
export { DEFAULT_MAX_BODY_BYTES } from './http/schemas.js';
export { SERVER_ERROR_CODES, type ServerErrorCode } from './server-error-codes.js';
