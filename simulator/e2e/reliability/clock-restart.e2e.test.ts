import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../app/serve.ts';

// Issue 23 item 4: with --data-dir the sandbox clock survives a restart; time never moves backwards.
describe('the sandbox clock across restarts', () => {
  it('keeps a 25 h advance: an expired token stays expired, an expired key stays expired', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ncs-clock-')), 'data');
    const first = await serve({ port: 0, dataDir });
    const api = `${first.baseUrl}/api/public/v1`;
    const auth = { authorization: `Bearer ${first.token}`, 'x-service-tenant': first.tenant };
    expect((await fetch(`${api}/providers`, { headers: auth })).status).toBe(200);
    const key = await fetch(`${api}/idempotency-keys`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ operation: 'connection.create' }),
    }).then((r) => r.json());
    first.sandbox.control.advanceClock(25 * 3600);
    const before = first.sandbox.state.clock.now();
    expect((await fetch(`${api}/providers`, { headers: auth })).status).toBe(401);
    await first.close();

    const second = await serve({ port: 0, dataDir });
    try {
      const clock = second.sandbox.state.clock;
      expect(clock.now()).toBeGreaterThanOrEqual(before);
      expect(clock.offset()).toBeGreaterThanOrEqual(25 * 3600_000);
      expect(clock.now()).toBeGreaterThan(Date.parse(key.data.expiresAt));
      const again = await fetch(`${second.baseUrl}/api/public/v1/providers`, { headers: auth });
      expect(again.status).toBe(401);
      expect((await second.sandbox.control.clock()).offsetMs).toBeGreaterThanOrEqual(25 * 3600_000);
    } finally {
      await second.close();
    }
  }, 30_000);
});
