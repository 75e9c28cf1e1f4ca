// Round 9: fractional clock advances (0.5 s twice, 0.0001234 s, 1e-300, 5e-324): earlier rounds tried
// negative, huge, NaN and typed-wrong amounts, not fractions. Expect: the clock moves by exactly what was
// asked, and every value derived from it stays in its wire form (integer expires_in, Retry-After and
// X-RateLimit-* headers, RFC 3339 times), also across a --data-dir restart (the clock never goes back).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { serve } from '../../app/serve.ts';
import { BACKEND, basic, call, token } from './attacks-round7-helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'ncs-r9-clock-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
type Clock = { now: string; offsetMs: number };
const clockOf = async (base: string, admin: string): Promise<Clock> =>
  ((await (await call(base, 'GET', '/_sandbox/clock', admin)).json()) as { data: Clock }).data;
const advance = (base: string, admin: string, raw: string) =>
  call(base, 'POST', '/_sandbox/clock/advance', admin, { body: raw });

describe('round 9: fractional clock advances', () => {
  it('0.5 s twice is 1 s; tiny fractions move the clock by what they are and break no wire format', async () => {
    const s = await serve({ port: 0, rateLimit: { limit: 2, windowSeconds: 10 } });
    try {
      const admin = s.sandbox.adminToken;
      const start = (await clockOf(s.baseUrl, admin)).offsetMs;
      for (const raw of ['{"seconds":0.5}', '{"seconds":0.5}'])
        expect((await advance(s.baseUrl, admin, raw)).status).toBe(200);
      expect((await clockOf(s.baseUrl, admin)).offsetMs - start).toBe(1000);
      for (const raw of ['{"seconds":1e-300}', '{"seconds":5e-324}', '{"seconds":0.0001234}']) {
        const res = await advance(s.baseUrl, admin, raw);
        expect([200, 400], await res.clone().text()).toContain(res.status);
      }
      const c = await clockOf(s.baseUrl, admin);
      expect(c.now).toMatch(RFC3339);
      expect(c.offsetMs - start).toBeGreaterThanOrEqual(1000);
      expect(c.offsetMs - start).toBeLessThan(1001);
      const t = await token(s.baseUrl, { grant_type: 'client_credentials' }, basic(BACKEND.id, BACKEND.secret));
      expect(Number.isInteger(t.json.expires_in), t.text).toBe(true);
      const key = await call(s.baseUrl, 'POST', '/api/public/v1/idempotency-keys', s.token, {
        tenant: s.tenant,
        body: { operation: 'createConnection' },
      });
      const keyText = await key.text();
      expect(key.status, keyText).toBe(200);
      expect((JSON.parse(keyText) as { data: { expiresAt: string } }).data.expiresAt).toMatch(RFC3339);
      let limited: Response | undefined;
      for (let i = 0; i < 4 && !limited; i++) {
        const r = await call(s.baseUrl, 'GET', '/api/public/v1/providers', s.token, { tenant: s.tenant });
        await r.arrayBuffer();
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining'])
          expect(r.headers.get(h) ?? '0').toMatch(/^\d+$/);
        if (r.status === 429) limited = r;
      }
      expect(limited?.headers.get('retry-after') ?? '').toMatch(/^\d+$/);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('a fractional offset survives a --data-dir restart exactly (never rounded back)', async () => {
    const dir = join(root, 'frac');
    const a = await serve({ port: 0, dataDir: dir, rateLimit: false });
    await advance(a.baseUrl, a.sandbox.adminToken, '{"seconds":3600.0001234}');
    const before = await clockOf(a.baseUrl, a.sandbox.adminToken);
    await a.close();
    const b = await serve({ port: 0, dataDir: dir, rateLimit: false });
    try {
      const after = await clockOf(b.baseUrl, b.sandbox.adminToken);
      expect(after.offsetMs).toBeGreaterThanOrEqual(before.offsetMs - 1);
      expect(Date.parse(after.now)).toBeGreaterThanOrEqual(Date.parse(before.now));
      expect(after.now).toMatch(RFC3339);
    } finally {
      await b.close();
    }
  }, 30_000);
});
