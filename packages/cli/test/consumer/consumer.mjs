// A plain-Node consumer of the installed packages (no TypeScript, no loader):
// runs review.dot in memory, revising once, then approving, and rebuilds the
// run's state from its records (the store authors' entry point).
import { readFileSync } from 'node:fs';
import { QueueInterviewer, loadPipeline, runPipeline, simulationBackend } from '@orchestra/core';
import { loadPipelineFile } from '@orchestra/core/loader';
import { restore } from '@orchestra/core/store';
import { createModelBackend } from '@orchestra/llm';
import { WORKSPACE_TOOL_NAMES } from '@orchestra/llm/agent';
import { MemoryRunStore } from '@orchestra/testing';

const file = new URL('./review.dot', import.meta.url);
const loaded = loadPipeline(readFileSync(file, 'utf8'), { file: 'review.dot' });
if (!loaded.ok || !loaded.graph) throw new Error(loaded.diagnostics.map((d) => d.message).join('\n'));
const store = new MemoryRunStore();
const result = await runPipeline(loaded.graph, {
  backend: simulationBackend,
  interviewer: new QueueInterviewer(['R', 'A']),
  store,
});
const { state } = restore(await store.readCheckpoint(), (await store.readJournal()).entries, 'start');
const fromLoader = await loadPipelineFile(file.pathname);
console.log(JSON.stringify({
  status: result.status,
  nodes: result.completedNodes,
  loaderOk: fromLoader.ok,
  restored: state.status,
  llm: typeof createModelBackend,
  agentTools: WORKSPACE_TOOL_NAMES.length,
}));
