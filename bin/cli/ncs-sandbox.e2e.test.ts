import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { serve } from '../../simulator/app/serve.ts';
import { NCS_BIN as BIN, waitForReadyFile } from '../../simulator/e2e/ready-file.ts';

describe('ncs sandbox (control plane from the command line)', () => {
  it('drives a running simulator: fault, clock, pause, reset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ncs-sandbox-'));
    const ready = join(dir, 'ready.json');
    // The subject is `ncs sandbox`: the simulator it drives runs in this process (the library's
    // serve(), over real HTTP), and writes the same ready file `ncs serve --ready-file` does.
    const server = await serve({ port: 0, readyFile: ready });
    try {
      const info = await waitForReadyFile(ready);
      const cli = (...args: string[]) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
          const p = spawn(process.execPath, [BIN, 'sandbox', '--ready-file', ready, ...args], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let out = '';
          let err = '';
          p.stdout.on('data', (c) => (out += c));
          p.stderr.on('data', (c) => (err += c));
          p.on('exit', (code) => resolve({ code, out, err }));
        });
      const auth = { authorization: `Bearer ${info.token}`, 'x-service-tenant': info.tenant };
      const fault = await cli('fault', 'rate_limited', '--route', 'listProviders', '--retry-after', '9');
      expect(fault.code, fault.err).toBe(0);
      const limited = await fetch(`${info.baseUrl}/api/public/v1/providers`, { headers: auth });
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('9');
      const created = await fetch(`${info.baseUrl}/api/public/v1/connections`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'cli-test-key-1' },
        body: JSON.stringify({
          connectorId: 'tillcraft-pos-cloud',
          environment: 'sandbox',
          scopeLabel: 'CLI venue',
          capabilities: ['orders.read'],
        }),
      }).then((r) => r.json());
      expect(JSON.parse((await cli('clock', '1h')).out).offsetMs).toBe(3_600_000);
      const paused = await cli('pause', created.data.id);
      expect(JSON.parse(paused.out).state).toBe('paused');
      const bad = await cli('revoke', 'con_missing');
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/not_found/);
      expect(JSON.parse((await cli('reset')).out).connections).toBe(0);
    } finally {
      await server.close();
    }
  });
});
