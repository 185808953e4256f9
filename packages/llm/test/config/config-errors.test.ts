import { describe, expect, it } from 'vitest';
import { ConfigError, combineConfigLayers, parseConfigText, readConfigFile } from '../../src/config/index.js';
import { configOf, tempDir, thrown, write } from './helpers.js';

const FILE = '/x/orchestra.yaml';

/** The ConfigError thrown by loading `lines` as one file (cross-checks included). */
function errorOf(...lines: string[]): ConfigError {
  const error = thrown(() => combineConfigLayers([parseConfigText(lines.join('\n') + '\n', FILE)], { cwd: '/x' }));
  expect(error).toBeInstanceOf(ConfigError);
  expect(error.code).toBe('ORCH_CONFIG');
  expect(error.message).not.toContain('\n');
  return error as ConfigError;
}

describe('ConfigError', () => {
  it('names a provider that is not configured, at the value, with the configured ones', () => {
    const error = errorOf('providers:', '  local:', '    base_url: http://localhost:8000/v1', 'models:', '  smart:', '    model: gpt-5.2', '    provider: opnai');
    expect(error.message).toBe(`${FILE}:7:15: models.smart.provider: "opnai" is not a configured provider (configured: openai, anthropic, gemini, ollama, local)`);
    expect(error).toMatchObject({ file: FILE, line: 7, column: 15, keyPath: 'models.smart.provider', path: ['models', 'smart', 'provider'] });
  });

  it('checks defaults.provider the same way', () => {
    expect(errorOf('defaults:', '  provider: nope').message).toBe(`${FILE}:2:13: defaults.provider: "nope" is not a configured provider (configured: openai, anthropic, gemini, ollama)`);
  });

  it('reports an unknown key at the key, with a suggestion when one is close', () => {
    const error = errorOf('providers:', '  local:', '    base_ur: http://localhost:8000/v1');
    expect(error.message).toBe(`${FILE}:3:5: providers.local.base_ur: unknown key (did you mean base_url?)`);
    expect(error.issue?.code).toBe('unrecognized_keys');
    expect(errorOf('modles: {}').message).toBe(`${FILE}:1:1: modles: unknown key (did you mean models?)`);
    expect(errorOf('agent:', '  maxTurns: 3').message).toBe(`${FILE}:2:3: agent.maxTurns: unknown key (did you mean max_turns?)`);
    expect(errorOf('colour: red').message).toBe(`${FILE}:1:1: colour: unknown key (known keys: providers, models, defaults, agent, cli_agent, interviewer, chat, roles, conference, prices)`);
  });

  it('reports a value of the wrong kind as "expected X, got Y"', () => {
    const error = errorOf('defaults:', '  backend: chat', 'agent:', '  max_turns: lots');
    expect(error.message).toBe(`${FILE}:4:14: agent.max_turns: expected an integer ≥ 1, got "lots"`);
    expect(error.issue).toBeDefined();
    expect(errorOf('agent: { max_turns: 0 }').message).toBe(`${FILE}:1:21: agent.max_turns: expected an integer ≥ 1, got 0`);
    expect(errorOf('models:', '  s: { model: m, temperature: 2.5 }').message).toBe(`${FILE}:2:31: models.s.temperature: expected a number from 0 to 2, got 2.5`);
    expect(errorOf('models:', '  s: { model: m, max_tokens: 1.5 }').message).toBe(`${FILE}:2:30: models.s.max_tokens: expected an integer ≥ 1, got 1.5`);
    expect(errorOf('models:', '  s: { model: m, reasoning_effort: hihg }').message).toBe(
      `${FILE}:2:36: models.s.reasoning_effort: expected one of low, medium, high, got "hihg" (did you mean high?)`,
    );
    expect(errorOf('interviewer:', '  auto_approve: yes').message).toBe(`${FILE}:2:17: interviewer.auto_approve: expected true or false, got "yes"`);
    expect(errorOf('cli_agent:', '  timeout: 10').message).toBe(`${FILE}:2:12: cli_agent.timeout: expected a duration like 250ms, 30s, 5m or 2h, got 10`);
    expect(errorOf('providers:', '  p: { base_url: "ftp://host" }').message).toBe(`${FILE}:2:18: providers.p.base_url: expected an http(s) URL like https://api.openai.com/v1, got "ftp://host"`);
    expect(errorOf('providers:', '  p:', '    headers: { X-Org: 5 }').message).toBe(`${FILE}:3:23: providers.p.headers.X-Org: expected a header value (a string), got 5`);
    expect(errorOf('agent:', '  tools: [read_file, grep]').message).toBe(`${FILE}:2:22: agent.tools[1]: expected one of read_file, write_file, edit_file, list_files, search_text, run_command, got "grep"`);
    expect(errorOf('models:', '  smart: gpt-5.2').message).toBe(`${FILE}:2:10: models.smart: expected a mapping like { model: gpt-5.2, provider: openai }, got "gpt-5.2"`);
  });

  it('points a missing key at its parent mapping', () => {
    const error = errorOf('models:', '  smart:', '    provider: openai');
    expect(error.message).toBe(`${FILE}:2:3: models.smart.model: missing (expected a model id)`);
  });

  it('reports the first problem in the file when there are several', () => {
    expect(errorOf('agent:', '  max_turns: 0', 'defaults:', '  backend: nope').keyPath).toBe('agent.max_turns');
    expect(errorOf('defaults:', '  backend: nope', 'agent:', '  max_turns: 0').keyPath).toBe('defaults.backend');
  });

  it('refuses an API key written where its variable name belongs, without echoing it', () => {
    const error = errorOf('providers:', '  openai:', '    api_key_env: sk-proj-abc123def456');
    expect(error.message).toBe(
      `${FILE}:3:18: providers.openai.api_key_env: this looks like an API key, not the name of an environment variable: never write the key here; put it in an environment variable (export OPENAI_API_KEY=...) and write the variable's name (api_key_env: OPENAI_API_KEY)`,
    );
    expect(error.message).not.toContain('abc123');
    expect(errorOf('providers:', '  p: { api_key_env: my-var }').message).toBe(
      `${FILE}:2:21: providers.p.api_key_env: expected the name of an environment variable (letters, digits and _), like OPENAI_API_KEY, got "my-var"`,
    );
  });

  it('takes variable names in capitals for names, whatever their prefix', () => {
    for (const name of ['XAI_API_KEY', 'HF_TOKEN', 'API_KEY', 'KEY_FOR_LOCAL', 'SK_TEAM_KEY']) {
      expect(() => configOf(`providers:\n  p:\n    base_url: http://127.0.0.1:1/v1\n    api_key_env: ${name}\n`), name).not.toThrow();
    }
  });

  it('refuses a provider other than openai without a base_url (its key would go to OpenAI)', () => {
    const error = errorOf('providers:', '  groq:', '    api_key_env: GROQ_API_KEY');
    expect(error.message).toBe(
      `${FILE}:3:5: providers.groq.base_url: missing: a provider other than the built-in ones (openai, anthropic, gemini, ollama) needs the base URL of its API (e.g. base_url: http://127.0.0.1:11434/v1)`,
    );
  });

  it('accepts a null api_key_env (a server that needs no key)', () => {
    expect(parseConfigText('providers:\n  local: { base_url: "http://localhost:1/v1", api_key_env: null }\n', FILE).config.providers?.local?.api_key_env).toBeNull();
  });

  it('refuses a cli_agent command written as one string, telling to write a list', () => {
    expect(errorOf('cli_agent:', '  command: claude -p').message).toBe(
      `${FILE}:2:12: cli_agent.command: a single string is not allowed here: write the command as a list of arguments, e.g. [claude, -p] (no shell is used, so a string is never split into words)`,
    );
    expect(errorOf('cli_agent:', '  command: []').message).toBe(`${FILE}:2:12: cli_agent.command: expected at least one argument (the program to run), got an empty list`);
    expect(errorOf('cli_agent:', '  command: [claude, ""]').message).toBe(`${FILE}:2:21: cli_agent.command[1]: expected a non-empty string, got ""`);
  });

  it('refuses provider names outside [A-Za-z0-9_.-], at the key', () => {
    expect(errorOf('providers:', '  "my server": {}').message).toBe(`${FILE}:2:3: providers["my server"]: provider names may use only letters, digits, _, . and -`);
  });

  it('reports YAML syntax errors with their line and column', () => {
    expect(errorOf('defaults:', '  model: a', '  model: b').message).toBe(`${FILE}:3:3: YAML syntax error: duplicate key (a key may appear only once in a mapping)`);
    const error = errorOf('agent:', '  tools: [read_file');
    expect(error.message).toMatch(new RegExp(`^${FILE}:3:1: YAML syntax error: `));
    expect(error.keyPath).toBe('');
    expect(errorOf('defaults: {}', '---', 'agent: {}').message).toBe(`${FILE}:2:1: YAML syntax error: expected one YAML document, found several (remove the extra ---)`);
  });

  it('refuses a file that is not a mapping', () => {
    expect(errorOf('- providers', '- models').message).toBe(
      `${FILE}:1:1: expected a mapping of settings (providers:, models:, defaults:, agent:, cli_agent:, interviewer:), got a list`,
    );
    expect(errorOf('just text').message).toBe(`${FILE}:1:1: expected a mapping of settings (providers:, models:, defaults:, agent:, cli_agent:, interviewer:), got "just text"`);
  });

  it('accepts an empty file, a file of comments and empty sections', () => {
    expect(parseConfigText('', FILE).config).toEqual({});
    expect(parseConfigText('# nothing yet\n', FILE).config).toEqual({});
    expect(parseConfigText('providers:\nmodels:\ndefaults:\n', FILE).config).toEqual({});
  });

  it('accepts YAML anchors and merge keys', () => {
    const text = 'providers:\n  a: &base\n    timeout: 5m\n    base_url: "http://a/v1"\n  b:\n    <<: *base\n    base_url: "http://b/v1"\n';
    expect(parseConfigText(text, FILE).config.providers?.b).toEqual({ timeout: '5m', base_url: 'http://b/v1' });
  });

  it('names an unreadable file', () => {
    const dir = tempDir();
    const file = write(dir, 'orchestra.yaml/inner', '');
    expect(thrown(() => readConfigFile(file.replace('/inner', ''))).message).toBe(`${dir}/orchestra.yaml:1:1: cannot read the configuration file: is a directory, not a file`);
  });
});
