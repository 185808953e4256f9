import { openFileStream } from '../../src/run/file-stage-store.js';
import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { HeadCapture } from '../../src/handlers/output-capture.js';
import { OutputLog } from '../../src/handlers/output-log.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('OutputLog', () => {
  it('waits for a slow file, until told to take what is left in the pipe at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orchestra-log-'));
    dirs.push(dir);
    const fifo = join(dir, 'slow-disk');
    execFileSync('mkfifo', [fifo]);
    // A reader that reads nothing yet: the "disk" accepts one pipe buffer, then stalls. Opened
    // read-write so that opening waits for no writer and its reads block (a non-blocking read of
    // the empty pipe fails with EAGAIN when the writer is a moment behind, as on a loaded machine).
    const reader = await open(fifo, constants.O_RDWR);
    const capture = new HeadCapture(0);
    const log = await OutputLog.open({ open: () => openFileStream(dir, 'slow-disk'), name: fifo }, capture);
    const source = new PassThrough();
    log.attach(source);
    const total = 2 * 1024 * 1024;
    for (let sent = 0; sent < total; sent += 64 * 1024) source.write(Buffer.alloc(64 * 1024, 'x'));
    source.end();
    await sleep(100);
    expect(capture.total).toBeLessThan(total); // back-pressure: the source waits for the file

    log.unthrottle(4 * 1024 * 1024);
    await log.ended;
    expect(capture.total).toBe(total); // all of it read, though the file has not taken it yet

    const drained = (async () => {
      // The reader holds a write end too, so the pipe never ends: read exactly what was sent (no read left pending).
      const buffer = Buffer.alloc(64 * 1024);
      let read = 0;
      while (read < total) read += (await reader.read(buffer, 0, Math.min(buffer.length, total - read))).bytesRead;
      return read;
    })();
    await log.close();
    expect(await drained).toBe(total);
    await reader.close();
  });
});
