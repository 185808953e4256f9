import { Annotation, StateGraph, MemorySaver, START, END } from '@langchain/langgraph';
const N = Number(process.argv[2] ?? 1000);
const State = Annotation.Root({ i: Annotation() });
let t = performance.now();
const g = new StateGraph(State);
for (let n = 0; n < N; n++) g.addNode(`s${n}`, () => ({ i: n }));
g.addEdge(START, 's0');
for (let n = 0; n + 1 < N; n++) g.addEdge(`s${n}`, `s${n + 1}`);
g.addEdge(`s${N - 1}`, END);
const app = g.compile({ checkpointer: new MemorySaver() });
console.log('build+compile ms', (performance.now() - t).toFixed(0));
for (let r = 0; r < 3; r++) {
  t = performance.now();
  const out = await app.invoke({ i: -1 }, { configurable: { thread_id: `t${r}` }, recursionLimit: N + 10 });
  const ms = performance.now() - t;
  console.log('run', r, out, (ms * 1000 / N).toFixed(1), 'µs/node', 'rss', (process.memoryUsage().rss / 1e6).toFixed(0));
}
