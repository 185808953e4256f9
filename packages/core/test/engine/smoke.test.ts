import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline, runPipeline, simulationBackend, type Graph, type RunEvent } from '../../src/index.js';
import { readCheckpoint } from '../../src/store.js';
import { bounded, eventsOf, newLogsRoot, runInMemory, scripted, statusAt, useTempDirs } from './engine-helpers.js';

useTempDirs();

/** The pipeline of spec §11.13, verbatim. */
const DOT = `
digraph test_pipeline {
    graph [goal="Create a hello world Python script"]

    start       [shape=Mdiamond]
    plan        [shape=box, prompt="Plan how to create a hello world script for: $goal"]
    implement   [shape=box, prompt="Write the code based on the plan", goal_gate=true]
    review      [shape=box, prompt="Review the code for correctness"]
    done        [shape=Msquare]

    start -> plan
    plan -> implement
    implement -> review [condition="outcome=success"]
    implement -> plan   [condition="outcome=fail", label="Retry"]
    review -> done      [condition="outcome=success"]
    review -> implement [condition="outcome=fail", label="Fix"]
}
`;

describe('spec §11.13 integration smoke test (simulation backend)', () => {
  it('parses, validates, runs and leaves the expected artifacts and checkpoint', async () => {
    // 1. Parse
    const loaded = loadPipeline(DOT, { file: 'smoke.dot' });
    const graph = loaded.graph as Graph;
    expect(graph).toBeDefined();
    expect(graph.attributes.goal).toBe('Create a hello world Python script');
    expect(graph.nodes.size).toBe(5);
    expect(graph.edges).toHaveLength(6);

    // 2. Validate
    expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(loaded.ok).toBe(true);

    // 3. Execute
    const logsRoot = newLogsRoot();
    const events: RunEvent[] = [];
    const result = await runPipeline(graph, bounded({ backend: simulationBackend, logsRoot, source: DOT, onEvent: (e: RunEvent) => void events.push(e) }));

    // 4. Verify
    expect(result.status).toBe('success');
    expect(result.completedNodes).toContain('implement');
    expect(result.completedNodes).toEqual(['start', 'plan', 'implement', 'review', 'done']);
    for (const node of ['plan', 'implement', 'review']) {
      for (const file of ['prompt.md', 'response.md', 'status.json']) {
        expect(existsSync(join(logsRoot, node, file)), `${node}/${file}`).toBe(true);
      }
    }
    expect(readFileSync(join(logsRoot, 'plan', 'prompt.md'), 'utf8')).toBe('Plan how to create a hello world script for: Create a hello world Python script');
    expect(readFileSync(join(logsRoot, 'review', 'response.md'), 'utf8')).toBe('[Simulated] Response for stage: review');

    // 5. Verify goal gate: satisfied when the run reached done, so done ran once, at once.
    expect(statusAt(logsRoot, 'implement').outcome).toBe('success');
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toEqual([]);
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'done')).toHaveLength(1);

    // 6. Verify checkpoint
    const checkpoint = readCheckpoint(logsRoot);
    expect(checkpoint.current_node).toBe('done');
    expect(checkpoint.completed_nodes).toEqual(expect.arrayContaining(['plan', 'implement', 'review']));
    expect(checkpoint.node_outcomes.implement).toBe('success');
    expect(checkpoint.status).toBe('completed');
  });

  /**
   * The same pipeline, but review also takes a failed implementation (and may
   * pass it), so the run can reach done with the goal gate unsatisfied; the
   * graph's retry_target (when set) is where the gate sends it back.
   */
  const LENIENT = DOT.replace('implement -> review [condition="outcome=success"]', 'implement -> review [condition="outcome!=retry"]').replace('    implement -> plan   [condition="outcome=fail", label="Retry"]\n', '');

  it('the goal gate decides at done: an unsatisfied implement sends the run back to the retry target', async () => {
    const source = LENIENT.replace('graph [goal="Create a hello world Python script"]', 'graph [goal="Create a hello world Python script", retry_target="plan"]');
    const implement = scripted({ implement: [{ status: 'fail', failureReason: 'tests fail' }, { status: 'success' }] });
    const { result, events } = await runInMemory(source, { handlers: { codergen: implement.handler } });
    expect(result.status).toBe('success');
    expect(result.completedNodes).toEqual(['start', 'plan', 'implement', 'review', 'plan', 'implement', 'review', 'done']);
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toEqual([expect.objectContaining({ nodeId: 'implement', retryTarget: 'plan' })]);
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'done')).toHaveLength(1);
  });

  it('the goal gate decides at done: without a retry target an unsatisfied implement fails the run, and done never runs', async () => {
    const implement = scripted({ implement: { status: 'fail', failureReason: 'tests fail' } });
    const { result, events } = await runInMemory(LENIENT, { handlers: { codergen: implement.handler } });
    expect(result).toMatchObject({ status: 'fail', failureReason: 'goal gate implement is unsatisfied and there is no retry target' });
    expect(result.completedNodes).toEqual(['start', 'plan', 'implement', 'review']);
    expect(eventsOf(events, 'goal_gate.unsatisfied')).toEqual([expect.objectContaining({ nodeId: 'implement', retryTarget: null })]);
    expect(eventsOf(events, 'stage.started').filter((e) => e.nodeId === 'done')).toEqual([]);
  });
});
