import { parseDuration } from '@orchestra/core/loader';
import type { LoadedConfig } from './load-config.js';

/** How long a CLI agent may run when nothing sets `cli_agent.timeout`. */
export const DEFAULT_CLI_AGENT_TIMEOUT_MS = 600_000;

/** How the CLI-agent backend runs. */
export interface CliAgentSettings {
  /** The argument vector (run without a shell); undefined when not configured. */
  command?: string[];
  /** Longest a run of the command may take, in milliseconds. */
  timeoutMs: number;
}

/** The `cli_agent` section with defaults (no command; 10 minutes). */
export function cliAgentSettings(config: LoadedConfig): CliAgentSettings {
  const section = config.config.cli_agent;
  const timeout = section?.timeout === undefined ? undefined : parseDuration(section.timeout);
  const settings: CliAgentSettings = { timeoutMs: timeout ?? DEFAULT_CLI_AGENT_TIMEOUT_MS };
  if (section?.command) settings.command = [...section.command];
  return settings;
}
