#!/usr/bin/env node
// Launcher for the `orchestra` command: runs the TypeScript sources through tsx.
import { register } from 'tsx/esm/api';

register();
await import('../src/bin.ts');
