import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it, onTestFinished } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { NCS_BIN as BIN, waitForReadyFile } from '../ready-file.ts';

describe('graceful shutdown', () => {
  it('SIGTERM during load: in-flight requests finish, streams end cleanly, exit 0 within 5 s', async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'ncs-term-')), 'ready.json');
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready], {
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    onTestFinished(() => void child.kill('SIGKILL'));
    const info = await waitForReadyFile(ready);
    const headers = { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant };
    // Keep 40 requests in flight for 400 ms each, and 5 streams open, when SIGTERM arrives.
    await fetch(`${info.baseUrl}/_sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'latency', route: 'listProviders', latencyMs: 400, count: 40 }),
    });
    const agent = new Agent({ connections: 64 });
    const inflight = Array.from({ length: 40 }, () =>
      undiciFetch(`${info.baseUrl}/api/public/v1/providers`, { headers, dispatcher: agent }).then(async (r) => ({
        status: r.status,
        body: await r.text(),
      })),
    );
    const streams = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await fetch(`${info.baseUrl}/api/public/v1/stream`, { headers });
        const reader = res.body!.getReader();
        // Wrapped: an async function returning a promise would wait for the stream to end.
        return {
          ended: (async () => {
            for (;;) {
              const { done } = await reader.read();
              if (done) return 'ended';
            }
          })().catch((e: Error) => `error: ${e.message}`),
        };
      }),
    );
    await sleep(150);
    const started = Date.now();
    child.kill('SIGTERM');
    const results = await Promise.all(inflight);
    expect(results.every((r) => r.status === 200 && JSON.parse(r.body).ok === true)).toBe(true);
    expect(await Promise.all(streams.map((s) => s.ended))).toEqual(Array(5).fill('ended'));
    expect(await exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    await agent.close();
  });
});
