import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { GraphNode } from '@orchestra/core';
import { combineConfigLayers, parseConfigText, type LoadedConfig } from '../../src/config/index.js';

/** A fresh temporary directory. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'orchestra-config-'));
}

/** Writes `text` at `root/relative`, creating directories; returns the absolute path. */
export function write(root: string, relative: string, text: string): string {
  const path = join(root, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/** A node with attributes and no source locations. */
export function node(id: string, attributes: Record<string, string> = {}): GraphNode {
  return { id, attributes, origins: {}, subgraphClasses: [] };
}

/** A configuration made of one in-memory file at `/cfg/orchestra.yaml`. */
export function configOf(text: string, cwd = '/work'): LoadedConfig {
  return combineConfigLayers(text ? [parseConfigText(text, '/cfg/orchestra.yaml')] : [], { cwd });
}

/** Runs `fn` and returns what it threw (failing when it does not throw). */
export function thrown(fn: () => unknown): Error & { code?: string } {
  try {
    fn();
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected an error');
}
