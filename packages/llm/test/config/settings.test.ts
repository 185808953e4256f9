import { describe, expect, it } from 'vitest';
import {
  DEFAULT_AGENT_TOOLS,
  ModelConfigError,
  agentSettings,
  cliAgentSettings,
  describeResolution,
  emptyConfig,
  interviewerSettings,
  maskKey,
  resolveModel,
} from '../../src/config/index.js';
import { configOf, node, thrown } from './helpers.js';

describe('agentSettings', () => {
  it('defaults: cwd as workspace, 20 turns, every tool but run_command, 2m commands', () => {
    expect(agentSettings(emptyConfig('/work'), node('plan'))).toEqual({
      workspace: '/work',
      maxTurns: 20,
      tools: ['read_file', 'write_file', 'edit_file', 'list_files', 'search_text'],
      commandTimeoutMs: 120_000,
    });
    expect(DEFAULT_AGENT_TOOLS).not.toContain('run_command');
  });

  it('takes the agent section, workspace relative to the file', () => {
    const config = configOf('agent:\n  workspace: ../repo\n  max_turns: 7\n  tools: [read_file, run_command]\n  command_timeout: 30s\n');
    expect(agentSettings(config)).toEqual({ workspace: '/repo', maxTurns: 7, tools: ['read_file', 'run_command'], commandTimeoutMs: 30_000 });
  });

  it('lets node attributes win over the file', () => {
    const config = configOf('agent:\n  max_turns: 7\n  tools: [read_file]\n');
    const settings = agentSettings(config, node('plan', { 'agent.max_turns': '3', 'agent.tools': ' list_files, search_text ,list_files' }));
    expect(settings).toMatchObject({ maxTurns: 3, tools: ['list_files', 'search_text'] });
    expect(agentSettings(config, node('plan', { 'agent.tools': '' })).tools).toEqual([]);
  });

  it('refuses unknown tools and bad turn counts, naming the node', () => {
    const error = thrown(() => agentSettings(emptyConfig('/w'), node('plan', { 'agent.tools': 'read_file,serch_text' })));
    expect(error).toBeInstanceOf(ModelConfigError);
    expect(error).toMatchObject({ code: 'ORCH_BAD_ATTRIBUTE', nodeId: 'plan' });
    expect(error.message).toBe(
      'node plan attribute agent.tools names an unknown tool "serch_text" (did you mean search_text?); known tools: read_file, write_file, edit_file, list_files, search_text, run_command',
    );
    expect(thrown(() => agentSettings(emptyConfig('/w'), node('plan', { 'agent.max_turns': '0' }))).message).toBe(
      'node plan attribute agent.max_turns is "0"; expected an integer ≥ 1',
    );
  });
});

describe('cliAgentSettings and interviewerSettings', () => {
  it('have defaults', () => {
    expect(cliAgentSettings(emptyConfig('/w'))).toEqual({ timeoutMs: 600_000 });
    expect(interviewerSettings(emptyConfig('/w'))).toEqual({ autoApprove: false });
  });

  it('read their sections', () => {
    const config = configOf('cli_agent:\n  command: [claude, -p]\n  timeout: 2h\ninterviewer:\n  auto_approve: true\n  timeout: 10m\n');
    expect(cliAgentSettings(config)).toEqual({ command: ['claude', '-p'], timeoutMs: 7_200_000 });
    expect(interviewerSettings(config)).toEqual({ autoApprove: true, timeoutMs: 600_000 });
  });
});

describe('maskKey', () => {
  it('shows the vendor prefix and the last four characters only', () => {
    expect(maskKey('sk-proj-abcdefghijklmnop1234')).toBe('sk-…1234');
    expect(maskKey('gsk_abcdefghijklmnopqrst9876')).toBe('gsk_…9876');
    expect(maskKey('abcdefghijklmnop5678')).toBe('…5678');
  });

  it('reveals nothing of a short key and says when there is none', () => {
    expect(maskKey('sk-short')).toBe('(hidden)');
    expect(maskKey(undefined)).toBe('(none)');
    expect(maskKey('')).toBe('(none)');
  });
});

describe('describeResolution', () => {
  it('prints every value with its source, the key masked', () => {
    const config = configOf('models:\n  smart: { model: gpt-5.2, reasoning_effort: high, temperature: 0.2 }\ndefaults:\n  model: smart\n');
    const resolved = resolveModel(node('plan'), { config, env: { OPENAI_API_KEY: 'sk-proj-abcdefghijkl1234' }, flags: {} });
    expect(describeResolution(resolved)).toEqual([
      'backend: chat (built-in default)',
      'model: smart → gpt-5.2 (/cfg/orchestra.yaml:4:10 defaults.model)',
      'provider: openai (built-in default)',
      'base URL: https://api.openai.com/v1 (built-in default)',
      'API key: sk-…1234 (environment OPENAI_API_KEY)',
      'options: reasoning_effort=high, temperature=0.2',
    ]);
  });

  it('says (none) for a missing key and a missing model', () => {
    const resolved = resolveModel(node('plan'), { config: emptyConfig('/w'), env: { OPENAI_BASE_URL: 'http://localhost:1/v1' }, flags: { backend: 'cli' } });
    const lines = describeResolution(resolved);
    expect(lines[1]).toBe('model: (none) (not needed by the cli backend)');
    expect(lines[4]).toBe('API key: (none) (OPENAI_API_KEY is not set; the cli backend does not use it)');
  });
});
