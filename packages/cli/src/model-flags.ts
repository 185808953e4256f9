import type { Backend, ModelFlags } from '@orchestra/llm/config';

/** The backends `--backend` accepts. */
export const BACKEND_CHOICES: readonly Backend[] = ['chat', 'agent', 'cli'];

/** Model flags as commander gives them. */
export interface ModelOptions {
  model?: string;
  baseUrl?: string;
  backend?: string;
}

/** The per-run model overrides, or an error message for a bad value. */
export function modelFlags(options: ModelOptions): ModelFlags | string {
  const flags: ModelFlags = {};
  if (options.model !== undefined) {
    if (!options.model.trim()) return '--model needs a model name or alias';
    flags.model = options.model.trim();
  }
  if (options.baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      return `--base-url expects an http(s) URL such as http://127.0.0.1:8080/v1, got ${JSON.stringify(options.baseUrl)}`;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `--base-url expects an http(s) URL, got ${JSON.stringify(options.baseUrl)}`;
    flags.baseUrl = options.baseUrl;
  }
  if (options.backend !== undefined) {
    if (!(BACKEND_CHOICES as readonly string[]).includes(options.backend)) return `--backend expects one of ${BACKEND_CHOICES.join(', ')}, got ${JSON.stringify(options.backend)}`;
    flags.backend = options.backend as Backend;
  }
  return flags;
}

/**
 * The model flags of the runs `orchestra chat` and `orchestra mcp` launch:
 * `--model` becomes the model of the stages that name none, so the agents a
 * `launch_run` names (each branch's `llm_model`) keep their models.
 */
export function runsModelFlags(flags: ModelFlags): ModelFlags {
  const { model, ...rest } = flags;
  return model === undefined ? rest : { ...rest, defaultModel: model };
}
