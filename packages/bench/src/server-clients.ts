import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FromChild, ToChild } from './server-client-child.js';
import { sharedNow } from './server-sse.js';

/**
 * The HTTP clients of `bench:server` in a child process of their own
 * (`server-client-child.ts`), so the server's process does only the
 * server's work: commands go over IPC, replies come back by `op`.
 */
export class Clients {
  private readonly waiting = new Map<FromChild['op'], (m: FromChild) => void>();
  private failure: Error | undefined;
  private readonly child: ChildProcess;

  constructor() {
    const entry = fileURLToPath(new URL('./server-client-child.mjs', import.meta.url));
    this.child = fork(entry, [], { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: FromChild) => {
      if (m.op === 'error') {
        this.failure = new Error(`client process: ${m.message}`);
        for (const resolve of this.waiting.values()) resolve(m);
        this.waiting.clear();
        return;
      }
      const resolve = this.waiting.get(m.op);
      this.waiting.delete(m.op);
      resolve?.(m);
    });
    this.child.once('exit', (code) => {
      this.failure ??= new Error(`the client process exited (${code})`);
      for (const resolve of this.waiting.values()) resolve({ op: 'error', message: 'exited' });
      this.waiting.clear();
    });
  }

  send(message: ToChild): void {
    if (this.failure) throw this.failure;
    this.child.send(message);
  }

  /** The next reply `op` (register before sending what it answers). */
  next<Op extends FromChild['op']>(op: Op): Promise<Extract<FromChild, { op: Op }>> {
    return new Promise((resolve, reject) => {
      this.waiting.set(op, (m) => (m.op === 'error' ? reject(this.failure ?? new Error(m.message)) : resolve(m as Extract<FromChild, { op: Op }>)));
    });
  }

  /**
   * The child's clock minus this process's, from the round trip with the
   * smallest time (its half is the bound on the estimate's error).
   */
  async clockOffset(rounds = 40): Promise<{ offset: number; halfRtt: number }> {
    let best = { rtt: Infinity, offset: 0 };
    for (let seq = 0; seq < rounds; seq++) {
      const reply = this.next('clock');
      const t0 = sharedNow();
      this.send({ op: 'clock', seq });
      const { t } = await reply;
      const t1 = sharedNow();
      if (t1 - t0 < best.rtt) best = { rtt: t1 - t0, offset: t - (t0 + t1) / 2 };
    }
    return { offset: best.offset, halfRtt: best.rtt / 2 };
  }

  close(): void {
    this.child.removeAllListeners('exit');
    this.child.kill();
  }
}

