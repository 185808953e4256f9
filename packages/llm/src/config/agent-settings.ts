import type { GraphNode } from '@orchestra/core';
import { parseDuration, parseInteger } from '@orchestra/core/loader';
import { AGENT_TOOLS, DEFAULT_AGENT_TOOLS, type AgentTool } from './config-schema.js';
import { didYouMean } from './did-you-mean.js';
import type { LoadedConfig } from './load-config.js';
import { ModelConfigError } from './model-config-error.js';
import { attributeSource, nodeAttribute } from './node-attribute.js';

/** Turns an agent may take when nothing sets `agent.max_turns`. */
export const DEFAULT_MAX_TURNS = 20;
/** How long an agent's `run_command` may run when nothing sets `agent.command_timeout`. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 120_000;

/** How the tool-calling agent backend runs for one node. */
export interface AgentSettings {
  /** Absolute root of the agent's file tools. */
  workspace: string;
  /** Most model turns before the agent stops. */
  maxTurns: number;
  /** The tools offered, in the order written. */
  tools: AgentTool[];
  /** Timeout of one `run_command`, in milliseconds. */
  commandTimeoutMs: number;
}

function maxTurnsOf(config: LoadedConfig, node: GraphNode | undefined): number {
  const attr = node && nodeAttribute(node, 'agent.max_turns');
  if (node && attr !== undefined) {
    const turns = parseInteger(attr);
    if (turns === undefined || turns < 1) {
      throw new ModelConfigError('ORCH_BAD_ATTRIBUTE', node.id, `${attributeSource(node, 'agent.max_turns')} is ${JSON.stringify(attr)}; expected an integer ≥ 1`);
    }
    return turns;
  }
  return config.config.agent?.max_turns ?? DEFAULT_MAX_TURNS;
}

function toolsOf(config: LoadedConfig, node: GraphNode | undefined): AgentTool[] {
  const attr = node?.attributes['agent.tools'];
  if (node && attr !== undefined) {
    const tools: AgentTool[] = [];
    for (const name of attr.split(',').map((t) => t.trim()).filter(Boolean)) {
      if (!(AGENT_TOOLS as readonly string[]).includes(name)) {
        const suggestion = didYouMean(name, AGENT_TOOLS);
        throw new ModelConfigError(
          'ORCH_BAD_ATTRIBUTE',
          node.id,
          `${attributeSource(node, 'agent.tools')} names an unknown tool ${JSON.stringify(name)}${suggestion ? ` (did you mean ${suggestion}?)` : ''}; known tools: ${AGENT_TOOLS.join(', ')}`,
        );
      }
      if (!tools.includes(name as AgentTool)) tools.push(name as AgentTool);
    }
    return tools;
  }
  return [...(config.config.agent?.tools ?? DEFAULT_AGENT_TOOLS)];
}

/**
 * The agent backend's settings for a node: node attributes (`agent.max_turns`,
 * `agent.tools` as a comma-separated list; an empty list means no tools) →
 * `agent` in orchestra.yaml → defaults (workspace: the `cwd` given to
 * `loadConfig`; 20 turns; every tool but `run_command`; 2m per command).
 * Throws `ORCH_BAD_ATTRIBUTE` for an unusable node attribute.
 */
export function agentSettings(config: LoadedConfig, node?: GraphNode): AgentSettings {
  const timeout = config.config.agent?.command_timeout;
  return {
    workspace: config.config.agent?.workspace ?? config.cwd,
    maxTurns: maxTurnsOf(config, node),
    tools: toolsOf(config, node),
    commandTimeoutMs: (timeout === undefined ? undefined : parseDuration(timeout)) ?? DEFAULT_COMMAND_TIMEOUT_MS,
  };
}
