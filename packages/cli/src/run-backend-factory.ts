import type { CodergenBackend } from '@orchestra/core';
import { OrchestraError } from '@orchestra/core';
import type { CliErrorCode } from './cli-error-codes.js';
import type { ModelFlags } from '@orchestra/llm/config';
import { loadRunConfig, modelBackend } from './llm-backend.js';
import { modelFlags } from './model-flags.js';

/** What a run asks of its model (as `@orchestra/server`'s `BackendRequest`). */
export interface RunBackendRequest {
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/**
 * The LLM backend factory of runs started on someone's behalf (`serve`,
 * `chat`, `mcp`): orchestra.yaml found from `configFrom` (a path in the
 * project; none: the working directory), the command's model flags, and
 * what the run asks. Models get no tools unless `allowTools`: the `chat`
 * backend, whatever orchestra.yaml prefers.
 */
export function runBackendFactory(models: ModelFlags, allowTools: boolean, configFrom?: string): (graph: unknown, request: RunBackendRequest) => Promise<CodergenBackend> {
  return async (_graph, request) => {
    const config = await loadRunConfig(configFrom);
    const backend = request.backend ?? models.backend ?? (allowTools ? undefined : 'chat');
    const requested = modelFlags({ ...(request.model ? { model: request.model } : {}), ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}), ...(backend ? { backend } : {}) });
    if (typeof requested === 'string') throw new OrchestraError<CliErrorCode>('ORCH_BAD_REQUEST', requested);
    return modelBackend(config, { ...models, ...requested });
  };
}
