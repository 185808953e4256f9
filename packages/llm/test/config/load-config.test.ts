import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSearchDirs, emptyConfig, loadConfig } from '../../src/config/index.js';
import { tempDir, thrown, write } from './helpers.js';

/** Three directories: home, a project (cwd) and the pipeline's own directory. */
function layout() {
  const root = tempDir();
  const home = join(root, 'home');
  const cwd = join(root, 'project');
  const pipelineDir = join(cwd, 'pipelines');
  mkdirSync(join(home, '.orchestra'), { recursive: true });
  mkdirSync(pipelineDir, { recursive: true });
  return { root, home, cwd, pipelineDir, pipelineFile: join(pipelineDir, 'p.dot') };
}

describe('loadConfig: discovery', () => {
  it('finds nothing and returns an empty configuration', () => {
    const { home, cwd, pipelineFile } = layout();
    const loaded = loadConfig({ pipelineFile, cwd, home, env: {} });
    expect(loaded.config).toEqual({});
    expect(loaded.files).toEqual([]);
    expect(loaded.cwd).toBe(cwd);
    expect(loaded.where(['defaults', 'model'])).toBeUndefined();
  });

  it('lists files nearest first: pipeline directory, cwd, home/.orchestra', () => {
    const { home, cwd, pipelineDir, pipelineFile } = layout();
    const near = write(pipelineDir, 'orchestra.yaml', 'defaults: { model: near }\n');
    const mid = write(cwd, 'orchestra.yaml', 'defaults: { model: mid }\n');
    const far = write(home, '.orchestra/orchestra.yaml', 'defaults: { model: far }\n');
    const loaded = loadConfig({ pipelineFile, cwd, home, env: {} });
    expect(loaded.files).toEqual([near, mid, far]);
    expect(loaded.config.defaults?.model).toBe('near');
    expect(loaded.where(['defaults', 'model'])).toBe(`${near}:1:20`);
  });

  it('accepts orchestra.yml', () => {
    const { home, cwd } = layout();
    const file = write(cwd, 'orchestra.yml', 'defaults:\n  backend: agent\n');
    const loaded = loadConfig({ cwd, home, env: {} });
    expect(loaded.files).toEqual([file]);
    expect(loaded.config.defaults?.backend).toBe('agent');
  });

  it('refuses a directory holding both orchestra.yaml and orchestra.yml', () => {
    const { home, cwd } = layout();
    write(cwd, 'orchestra.yaml', '{}\n');
    const yml = write(cwd, 'orchestra.yml', '{}\n');
    const error = thrown(() => loadConfig({ cwd, home, env: {} }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toBe(`${yml}:1:1: both orchestra.yaml and orchestra.yml exist in ${cwd}; orchestra reads one file per directory: merge them into orchestra.yaml`);
  });

  it('counts a directory once when the pipeline sits in cwd (also through a symlink)', () => {
    const { root, home, cwd } = layout();
    const file = write(cwd, 'orchestra.yaml', 'defaults: { model: m }\n');
    expect(loadConfig({ pipelineFile: join(cwd, 'p.dot'), cwd, home, env: {} }).files).toEqual([file]);
    symlinkSync(cwd, join(root, 'link'));
    expect(configSearchDirs({ pipelineFile: join(root, 'link', 'p.dot'), cwd, home })).toHaveLength(2);
  });

  it('resolves a relative pipeline path against cwd and falls back to HOME from env', () => {
    const { home, cwd, pipelineDir } = layout();
    const near = write(pipelineDir, 'orchestra.yaml', '{}\n');
    const far = write(home, '.orchestra/orchestra.yaml', '{}\n');
    expect(loadConfig({ pipelineFile: 'pipelines/p.dot', cwd, env: { HOME: home } }).files).toEqual([near, far]);
    expect(loadConfig({ pipelineFile: 'pipelines/p.dot', cwd, env: {} }).files).toEqual([near]);
  });
});

describe('loadConfig: layering', () => {
  function threeLayers() {
    const dirs = layout();
    const far = write(
      dirs.home,
      '.orchestra/orchestra.yaml',
      [
        'providers:',
        '  openai:',
        '    api_key_env: HOME_KEY',
        '  local:',
        '    base_url: http://far:8000/v1',
        '    headers: { X-Far: "1", X-Both: far }',
        'models:',
        '  smart: { model: far-smart, provider: openai }',
        '  cheap: { model: far-cheap }',
        'defaults:',
        '  model: smart',
        '  backend: agent',
        'agent:',
        '  tools: [read_file, run_command]',
        '  max_turns: 5',
        'interviewer:',
        '  timeout: 1m',
        '',
      ].join('\n'),
    );
    const mid = write(
      dirs.cwd,
      'orchestra.yaml',
      ['providers:', '  local:', '    base_url: http://mid:8000/v1', '    headers: { X-Both: mid }', 'models:', '  smart: { model: mid-smart, provider: local }', 'agent:', '  tools: [list_files]', ''].join('\n'),
    );
    const near = write(dirs.pipelineDir, 'orchestra.yaml', ['defaults:', '  model: cheap', 'interviewer:', '  auto_approve: true', ''].join('\n'));
    return { ...dirs, far, mid, near, loaded: loadConfig({ pipelineFile: dirs.pipelineFile, cwd: dirs.cwd, home: dirs.home, env: {} }) };
  }

  it('merges maps by key, a nearer entry replacing the farther one whole (headers included)', () => {
    const { loaded } = threeLayers();
    expect(loaded.config.providers).toEqual({
      openai: { api_key_env: 'HOME_KEY' },
      local: { base_url: 'http://mid:8000/v1', headers: { 'X-Both': 'mid' } },
    });
    expect(loaded.config.models).toEqual({ smart: { model: 'mid-smart', provider: 'local' }, cheap: { model: 'far-cheap' } });
  });

  it('takes each section key from the nearest file that sets it; lists are not concatenated', () => {
    const { loaded } = threeLayers();
    expect(loaded.config.defaults).toEqual({ model: 'cheap', backend: 'agent' });
    expect(loaded.config.agent).toEqual({ tools: ['list_files'], max_turns: 5 });
    expect(loaded.config.interviewer).toEqual({ timeout: '1m', auto_approve: true });
  });

  it('where() names the file that supplies the merged value', () => {
    const { loaded, near, mid, far } = threeLayers();
    expect(loaded.where(['defaults', 'model'])).toBe(`${near}:2:10`);
    expect(loaded.where(['defaults', 'backend'])).toBe(`${far}:12:12`);
    expect(loaded.where(['models', 'smart', 'provider'])).toBe(`${mid}:6:40`);
    expect(loaded.where(['agent', 'tools', 0])).toBe(`${mid}:8:11`);
    expect(loaded.where(['providers', 'openai', 'api_key_env'])).toBe(`${far}:3:18`);
    // The nearer local entry replaced the farther one whole: its X-Far header is gone, and so is its position.
    expect(loaded.where(['providers', 'local', 'headers', 'X-Far'])).toBeUndefined();
    expect(loaded.locate(['defaults', 'model'])).toEqual({ file: near, line: 2, column: 10 });
  });

  it('validates each file on its own: an error names exactly one file', () => {
    const { home, cwd, pipelineFile } = layout();
    write(home, '.orchestra/orchestra.yaml', 'defaults: { model: m }\n');
    const bad = write(cwd, 'orchestra.yaml', 'defaults:\n  modle: m\n');
    expect(thrown(() => loadConfig({ pipelineFile, cwd, home, env: {} })).message).toBe(`${bad}:2:3: defaults.modle: unknown key (did you mean model?)`);
  });

  it('cross-checks after merging: an alias may use a provider defined in another file', () => {
    const { home, cwd } = layout();
    write(home, '.orchestra/orchestra.yaml', 'providers:\n  local: { base_url: "http://localhost:1234/v1" }\n');
    write(cwd, 'orchestra.yaml', 'models:\n  fast: { model: m, provider: local }\ndefaults: { provider: local }\n');
    expect(loadConfig({ cwd, home, env: {} }).config.models?.fast?.provider).toBe('local');
  });

  it('resolves agent.workspace against the directory of the file that sets it', () => {
    const { home, cwd, pipelineDir, pipelineFile } = layout();
    write(home, '.orchestra/orchestra.yaml', 'agent: { workspace: ws }\n');
    expect(loadConfig({ cwd, home, env: {} }).config.agent?.workspace).toBe(join(home, '.orchestra', 'ws'));
    write(pipelineDir, 'orchestra.yaml', 'agent: { workspace: .. }\n');
    expect(loadConfig({ pipelineFile, cwd, home, env: {} }).config.agent?.workspace).toBe(cwd);
  });

  it('emptyConfig() is a configuration without files', () => {
    expect(emptyConfig('/somewhere')).toMatchObject({ config: {}, files: [], cwd: '/somewhere' });
  });
});
