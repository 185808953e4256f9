/**
 * Test helpers for orchestra: fixture paths, generated pipelines, a run
 * store kept in memory, a scripted OpenAI-compatible server and its
 * Anthropic Messages API and Gemini API twins, an OTLP trace receiver. The conformance suite for run stores (it
 * needs vitest) is in `@orchestra/testing/conformance`.
 * @packageDocumentation
 */
export { FIXTURES_DIR, fixturePath, readFixture } from './fixtures.js';
export { TESTING_ERROR_CODES, type TestingErrorCode } from './testing-error-codes.js';
export { generateLinearPipeline, generatePipeline, type GeneratePipelineOptions } from './generate-pipeline.js';
export * from './openai-server/index.js';
export * from './anthropic-server/index.js';
export * from './ollama-server/index.js';
export * from './gemini-server/index.js';
export * from './otlp-receiver/index.js';
export { NETWORK_GUARD, guardNetwork, type NetworkGuard } from './network-guard.js';
export { MemoryRunStore } from './memory-run-store.js';
export { MemoryRunCatalogue } from './memory-run-catalogue.js';
