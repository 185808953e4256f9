import { describe, expect, it } from 'vitest';
import { runCli } from '../src/index.js';

/**
 * `orchestra serve` with flags it refuses: checked in-process, before anything listens. A bad
 * `--backend`, checked after these flags, stops a server from starting should one of them pass.
 */
async function serve(...flags: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['serve', '--port', '0', ...flags, '--backend', 'not-a-backend'], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('orchestra serve refuses bad flags with exit 2 and one line', () => {
  it('--max-body: a whole number of bytes from 1 to 1 GiB', async () => {
    for (const value of ['99999999999999999999', '1073741825', '0', '1k', '1e3', '-5', '']) {
      const refused = await serve('--max-body', value);
      expect(refused.code, value).toBe(2);
      expect(refused.stderr, value).toBe(`orchestra: --max-body expects a size in bytes from 1 to 1073741824 (1 GiB), got ${JSON.stringify(value)}\n`);
      expect(refused.stdout).toBe('');
    }
  });

  it('--allowed-host: a host name or address, with or without a port', async () => {
    for (const value of ['http://box.lan', 'box.lan:0', 'box.lan:99999', 'box lan', 'box.lan/x']) {
      const refused = await serve('--allowed-host', 'good.example', '--allowed-host', value);
      expect(refused.code, value).toBe(2);
      expect(refused.stderr, value).toBe(`orchestra: --allowed-host expects a host name or address, with or without a port (such as orchestra.example.com or 192.168.1.20:7070), got ${JSON.stringify(value)}\n`);
    }
  });
});
