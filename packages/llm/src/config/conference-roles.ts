import { readFileSync } from 'node:fs';
import type { ConferenceRole } from '@orchestra/core/handlers';
import type { ConferenceTemplateName } from '@orchestra/core/loader';
import type { GraphNode } from '@orchestra/core';
import { didYouMean } from './did-you-mean.js';
import type { LoadedConfig } from './load-config.js';
import { ConfigError } from './config-error.js';
import { ModelConfigError } from './model-config-error.js';

/** The roles `roles:` defines, by name. */
export function roleNames(config: LoadedConfig): string[] {
  return Object.keys(config.config.roles ?? {});
}

/** Why `name` is not a usable role of this configuration, or `undefined` when it is one. */
export function unknownRoleMessage(config: LoadedConfig, name: string): string | undefined {
  if (config.config.roles?.[name]) return undefined;
  const known = roleNames(config);
  const hint = didYouMean(name, known);
  const where = config.files.length ? `roles: in ${config.files.join(', ')}` : 'no orchestra.yaml was found';
  return `${JSON.stringify(name)} is not a role (${where}${known.length ? `; the roles are ${known.join(', ')}` : '; it defines none'})${hint ? `: did you mean ${JSON.stringify(hint)}?` : ''}`;
}

/**
 * The roles a conference node names, from `roles:` in orchestra.yaml: the
 * contract (its text, or the file's), the evidence rule (default `any`), the
 * tier (default `T3`) and the model (default: the node's). Throws
 * `ModelConfigError` (`ORCH_UNKNOWN_ROLE`) naming an undefined role or a
 * contract file that cannot be read.
 */
export function conferenceRoles(config: LoadedConfig, names: readonly string[], node: GraphNode): ConferenceRole[] {
  return names.map((name) => {
    const problem = unknownRoleMessage(config, name);
    const role = config.config.roles?.[name];
    if (problem || !role) throw new ModelConfigError('ORCH_UNKNOWN_ROLE', node.id, `${node.attributes.type === 'conference' ? 'conference node' : 'node'} ${node.id}: ${problem}`);
    let contract = role.contract;
    if (contract === undefined && role.contract_file !== undefined) {
      try {
        contract = readFileSync(role.contract_file, 'utf8');
      } catch (error) {
        const where = config.where(['roles', name, 'contract_file']);
        throw new ModelConfigError('ORCH_UNKNOWN_ROLE', node.id, `${where ? `${where}: ` : ''}the contract file of role ${name}, ${role.contract_file}, cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
      }
    }
    return { name, contract: contract ?? '', evidence: role.evidence ?? 'any', tier: role.tier ?? 'T3', ...(role.model ? { model: role.model } : {}) };
  });
}

/** The templates `conference.templates` names, read; a file that cannot be read is a `ConfigError` (`ORCH_CONFIG`) at the line that names it. */
export function configuredTemplates(config: LoadedConfig): Partial<Record<ConferenceTemplateName, string>> {
  const out: Partial<Record<ConferenceTemplateName, string>> = {};
  for (const [name, file] of Object.entries(config.config.conference?.templates ?? {}) as [ConferenceTemplateName, string][]) {
    try {
      out[name] = readFileSync(file, 'utf8');
    } catch (error) {
      const path = ['conference', 'templates', name];
      const at = config.locate(path) ?? { file: config.files[0] ?? 'orchestra.yaml', line: 1, column: 1 };
      throw new ConfigError(at, path, `the template file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
    }
  }
  return out;
}
