import { homedir } from 'node:os';
import { hasLlmStages } from '@orchestra/core/loader';
export { hasLlmStages };
import type { LoadedConfig, ModelFlags } from '@orchestra/llm/config';
import type { Cassette, CodergenBackend } from '@orchestra/core';

function search(pipelineFile: string | undefined) {
  return { ...(pipelineFile ? { pipelineFile } : {}), cwd: process.cwd(), home: homedir(), env: process.env };
}

/**
 * Whether any `orchestra.yaml` applies to a run (a cheap look, without
 * loading the YAML parser: a simulated run without one starts as fast as
 * before there was configuration).
 */
export async function hasRunConfig(pipelineFile: string | undefined): Promise<boolean> {
  const { findConfigFiles } = await import('@orchestra/llm/config-files');
  return findConfigFiles(search(pipelineFile)).length > 0;
}

/**
 * The `orchestra.yaml` layers for a run: next to the pipeline, in the working
 * directory, in `~/.orchestra/`. Loading them needs no LangChain.
 */
export async function loadRunConfig(pipelineFile: string | undefined): Promise<LoadedConfig> {
  const { loadConfig } = await import('@orchestra/llm/config');
  return loadConfig(search(pipelineFile));
}

/**
 * The model backend for a run with LLM stages (imports LangChain, so only
 * when a run needs it): stages resolve their model from the node, the
 * stylesheet, the flags and the configuration.
 */
export async function modelBackend(config: LoadedConfig, flags: ModelFlags, cassette?: Cassette): Promise<CodergenBackend> {
  const { createModelBackend } = await import('@orchestra/llm');
  return createModelBackend({ config, env: process.env, flags, ...(cassette ? { cassette } : {}) });
}
