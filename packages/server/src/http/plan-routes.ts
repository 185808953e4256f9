import type { Context, Hono } from 'hono';
import type { ServerPlans } from '../plans/server-plans.js';
import { ApiError } from './api-error.js';
import { jsonBody, parseInput } from './errors.js';
import { AnswerBodySchema, EditTaskBodySchema, MoveTaskBodySchema, PathIdSchema, ProposePlanBodySchema, RunPlanBodySchema, TaskIdSchema } from './schemas.js';

/** A body that may be empty (`{}` then); otherwise JSON. */
async function optionalBody(c: Context): Promise<unknown> {
  const text = await c.req.raw.clone().text();
  return text.trim() === '' ? {} : jsonBody(c);
}

/**
 * The session plan endpoints (docs/http-api.md): `/plan`, its tasks and
 * questions, over the project's {@link ServerPlans}. A server without a
 * project answers each with 404 `ORCH_NOT_FOUND`.
 */
export function planRoutes(app: Hono, plans: ServerPlans | undefined): void {
  const project = (): ServerPlans => {
    if (!plans) throw new ApiError(404, 'ORCH_NOT_FOUND', 'this server serves no project, so no plan: start it with --project <dir>');
    plans.allowed();
    return plans;
  };
  const taskId = (c: Context) => parseInput(TaskIdSchema, c.req.param('id'), 'path parameter id');

  app.get('/plan', async (c) => c.json(await project().view()));
  app.post('/plan', async (c) => {
    const served = project();
    const body = parseInput(ProposePlanBodySchema, await jsonBody(c), 'body');
    c.header('Location', '/plan');
    return c.json(await served.propose(body.intent, body.simulate === true), 201);
  });
  app.patch('/plan/tasks/:id', async (c) => {
    const served = project();
    const id = taskId(c);
    const body = parseInput(EditTaskBodySchema, await jsonBody(c), 'body');
    return c.json(await served.edit(id, body.description));
  });
  app.delete('/plan/tasks/:id', async (c) => c.json(await project().remove(taskId(c))));
  app.post('/plan/tasks/:id/move', async (c) => {
    const served = project();
    const id = taskId(c);
    const body = parseInput(MoveTaskBodySchema, await jsonBody(c), 'body');
    return c.json(await served.move(id, body.position));
  });
  app.post('/plan/tasks/:id/force', async (c) => c.json(await project().force(taskId(c))));
  app.post('/plan/start', async (c) => {
    const served = project();
    const body = parseInput(RunPlanBodySchema, await optionalBody(c), 'body');
    return c.json(await served.start(body.simulate));
  });
  app.post('/plan/pause', async (c) => c.json(await project().pause()));
  app.post('/plan/resume', async (c) => {
    const served = project();
    const body = parseInput(RunPlanBodySchema, await optionalBody(c), 'body');
    return c.json(await served.resume(body.simulate));
  });
  app.post('/plan/questions/:qid/answer', async (c) => {
    const served = project();
    const qid = parseInput(PathIdSchema, c.req.param('qid'), 'path parameter qid');
    const body = parseInput(AnswerBodySchema, await jsonBody(c), 'body');
    return c.json(await served.answer(qid, body.answer));
  });
}
