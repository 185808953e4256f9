/**
 * Test helpers for orchestra: fixture paths, generated pipelines and a
 * scripted OpenAI-compatible server.
 * @packageDocumentation
 */
export { FIXTURES_DIR, fixturePath, readFixture } from './fixtures.js';
export { generateLinearPipeline, generatePipeline, type GeneratePipelineOptions } from './generate-pipeline.js';
export * from './openai-server/index.js';
export { NETWORK_GUARD, guardNetwork, type NetworkGuard } from './network-guard.js';
