import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, ServerRuns } from '../../src/index.js';
import { RECEIPTS, ROLES, QUESTION, writeConferenceRun, writeConferenceRunUnderWay } from '../support/conference-run.js';
import { tempRunsDir } from '../support/test-server.js';

let runsDir: string | undefined;
afterEach(() => {
  if (runsDir) rmSync(runsDir, { recursive: true, force: true });
  runsDir = undefined;
});

/** The app over a runs directory holding the hand-written conference run, asked in-process (no port). */
function conferenceApp() {
  runsDir = tempRunsDir();
  const dir = writeConferenceRun(runsDir);
  const app = createApp(new ServerRuns({ runsDir }));
  const get = async (path: string) => {
    const response = await app.request(path);
    return { status: response.status, body: (await response.json()) as any };
  };
  return { dir, get };
}

describe('GET /pipelines/{id}/stages/{node}/conference', () => {
  it("gives the stage's conference.json and its receipts, parsed", async () => {
    const { dir, get } = conferenceApp();
    const reply = await get('/pipelines/scene-review/stages/review/conference');
    expect(reply.status).toBe(200);
    // As written, fields in their order: checked, not rebuilt.
    expect(JSON.stringify(reply.body.conference)).toBe(JSON.stringify(JSON.parse(readFileSync(join(dir, 'review', 'conference.json'), 'utf8'))));
    expect(reply.body.receipts).toEqual(RECEIPTS);
    expect(reply.body.conference).toMatchObject({ format: 'orchestra.conference/1', node_id: 'review', question: QUESTION, quorum: 1, answered: 1, status: 'success' });
    expect(reply.body.conference.roles).toEqual(ROLES);
    expect(reply.body.conference.chief.receipts).toEqual(RECEIPTS.map((r) => r.receipt_id));
  });

  it('404 for a stage with no conference record, and for a node the run has not reached', async () => {
    const { dir, get } = conferenceApp();
    for (const node of ['draft', 'start']) {
      const reply = await get(`/pipelines/scene-review/stages/${node}/conference`);
      expect(reply.status, node).toBe(404);
      expect(reply.body.error).toEqual({ code: 'ORCH_NOT_FOUND', message: `stage ${node} of run scene-review has no conference record` });
    }
    // A node of the pipeline the run never reached: its stage is not opened (which would create it).
    expect((await get('/pipelines/scene-review/stages/fix/conference')).body.error.message).toBe('stage fix of run scene-review has no conference record');
    expect(existsSync(join(dir, 'fix'))).toBe(false);
  });

  it('refuses a node id that is not a node of the run: 404, or 400 when it cannot be an id; no stage is opened', async () => {
    const { dir, get } = conferenceApp();
    const unknown = await get('/pipelines/scene-review/stages/nobody/conference');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toEqual({ code: 'ORCH_NOT_FOUND', message: 'the pipeline of run scene-review has no node "nobody"' });
    expect(existsSync(join(dir, 'nobody'))).toBe(false);
    for (const node of ['..', '..%2F..%2Fetc', 'review%2F..%2F..', '%2E%2E', 'a%00b', 'manifest.json%2F']) {
      const reply = await get(`/pipelines/scene-review/stages/${node}/conference`);
      expect([400, 404], node).toContain(reply.status);
      expect(reply.body.error.code, node).toMatch(/^ORCH_(BAD_REQUEST|NOT_FOUND)$/);
      expect(reply.body.conference, node).toBeUndefined();
    }
    expect((await get('/pipelines/scene-review/stages/..%2F..%2Fetc/conference')).status).toBe(400);
    // Files of the run directory are not nodes.
    expect((await get('/pipelines/scene-review/stages/checkpoint.json/conference')).status).toBe(404);
  });

  it('404 for an unknown run; 422 for a conference.json that is not a record', async () => {
    const { dir, get } = conferenceApp();
    const run = await get('/pipelines/nope/stages/review/conference');
    expect(run.status).toBe(404);
    expect(run.body.error.code).toBe('ORCH_RUN_NOT_FOUND');
    writeFileSync(join(dir, 'review', 'conference.json'), '{"format": "orchestra.conference/1", "roles": ');
    const torn = await get('/pipelines/scene-review/stages/review/conference');
    expect(torn.status).toBe(422);
    expect(torn.body.error.code).toBe('ORCH_CHECKPOINT');
    expect(torn.body.error.message).toContain('review/conference.json is corrupt or truncated');
    writeFileSync(join(dir, 'review', 'conference.json'), JSON.stringify({ format: 'orchestra.conference/9', node_id: 'review', question: 'q', evidence: [], roles: [] }));
    const foreign = await get('/pipelines/scene-review/stages/review/conference');
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.message).toMatch(/review\/conference\.json is not a conference record \(format: /);
  });

  it('404 while the conference is under way (no conference.json yet), the record once the stage wrote it', async () => {
    const { get } = conferenceApp();
    const run = writeConferenceRunUnderWay(runsDir!, 'live');
    const before = await get('/pipelines/live/stages/review/conference');
    expect(before.status).toBe(404);
    expect(before.body.error.message).toBe('stage review of run live has no conference record');
    run.finish();
    const after = await get('/pipelines/live/stages/review/conference');
    expect(after.status).toBe(200);
    expect(after.body.conference.roles.map((r: { status: string }) => r.status)).toEqual(['answered', 'abstained', 'ungrounded']);
  });

  it('leaves out a receipt line cut short at the end of receipts.jsonl (the chief was writing it)', async () => {
    const { dir, get } = conferenceApp();
    const lines = RECEIPTS.map((r) => JSON.stringify(r)).join('\n');
    writeFileSync(join(dir, 'review', 'receipts.jsonl'), `${lines}\n{"receipt_id":"rcpt_00`);
    const reply = await get('/pipelines/scene-review/stages/review/conference');
    expect(reply.status).toBe(200);
    expect(reply.body.receipts).toEqual(RECEIPTS);
  });
});
