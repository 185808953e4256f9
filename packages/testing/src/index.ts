/**
 * Test helpers for orchestra: fixture paths and generated pipelines.
 * @packageDocumentation
 */
export { FIXTURES_DIR, fixturePath, readFixture } from './fixtures.js';
export { generateLinearPipeline, generatePipeline, type GeneratePipelineOptions } from './generate-pipeline.js';
