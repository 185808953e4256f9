/**
 * The per-package test projects. Vitest 4 reads projects from `test.projects`
 * in the root config; `vitest.config.ts` imports this list.
 */
export const projects = ['packages/core', 'packages/llm', 'packages/cli', 'packages/server', 'packages/chat', 'packages/recipes', 'packages/store-postgres', 'packages/testing'];
