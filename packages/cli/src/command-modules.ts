/**
 * The CLI's commands other than `validate`, each imported only when it runs,
 * so that starting the CLI loads none of them (nor the engine, LangChain,
 * Hono, Graphviz or the MCP SDK behind them).
 *
 * The build (scripts/build-cli.mjs) makes each command an ES module of its
 * own (`dist/commands/<name>.mjs`) and this file a small CommonJS module
 * (`dist/command-modules.cjs`) that the start-up bundle requires: node
 * resolves its `import()`s, which the code-cached start-up bundle could not
 * do by itself.
 */
export const commandModules = {
  render: () => import('./commands/render.js'),
  init: () => import('./commands/init.js'),
  run: () => import('./commands/run.js'),
  answer: () => import('./commands/answer.js'),
  doctor: () => import('./commands/doctor.js'),
  status: () => import('./commands/status.js'),
  serve: () => import('./commands/serve.js'),
  chat: () => import('./commands/chat.js'),
  mcp: () => import('./commands/mcp.js'),
  recipe: () => import('./commands/recipe.js'),
  plan: () => import('./commands/plan.js'),
  worker: () => import('./commands/worker.js'),
  db: () => import('./commands/db.js'),
  /** Not a command: `validate`'s checks against orchestra.yaml, conference roles and providers (it loads the YAML parser). */
  configChecks: () => import('./commands/config-checks.js'),
};
