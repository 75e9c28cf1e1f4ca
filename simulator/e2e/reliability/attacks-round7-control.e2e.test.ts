import { describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { call, failure, key, signIn } from './attacks-round7-helpers.ts';
import { admin, useServer } from './attacks-round7-server.ts';

// Hardening round 7 (see attacks-round7.e2e.test.ts): the control plane's clock, per-run sandboxes, the client
// report and the receiver check under abuse.
let s: RunningServer;
useServer((server) => {
  s = server;
});

describe('attacks round 7: control plane clock, runs and client report', () => {
  it.each([
    ['negative', -3600],
    ['1e300', 1e300],
    ['a string', '3600'],
    ['null', null],
    ['2^53', 2 ** 53],
    ['an object', { valueOf: 1 }],
  ])(
    'clock advance by %s seconds: 400, clock unchanged (did not hold: the hint named the interface document)',
    async (_, seconds) => {
      const before = (await (await admin('/_sandbox/clock')).json()).data.offsetMs;
      const json = await failure(await admin('/_sandbox/clock/advance', 'POST', { seconds }), 400, 'invalid_request');
      // did not hold: the hint sent control-plane callers to the interface's document, which has no such route
      expect(json.error.hint).toContain('/_sandbox/openapi.json');
      expect((await (await admin('/_sandbox/clock')).json()).data.offsetMs).toBe(before);
    },
  );

  it('clock advance with NaN and Infinity in the raw JSON: 400, not a 500', async () => {
    for (const raw of ['{"seconds":NaN}', '{"seconds":Infinity}', '{"seconds":1e999}', '{"seconds":-0}']) {
      const res = await admin('/_sandbox/clock/advance', 'POST', raw);
      expect([200, 400], raw).toContain(res.status);
      if (res.status === 400) await failure(res, 400, 'invalid_request');
    }
  });

  it('a 10-year advance while a stream is open: the stream ends with its token, the server answers', async () => {
    // its own server: ten years end every token of the shared one
    const own = await serve({ port: 0, rateLimit: false, inspector: false });
    try {
      const { access } = await signIn(own.baseUrl);
      const stream = await call(own.baseUrl, 'GET', '/api/public/v1/stream', access, { tenant: own.tenant });
      expect(stream.status).toBe(200);
      const adv = await call(own.baseUrl, 'POST', '/_sandbox/clock/advance', own.sandbox.adminToken, {
        body: { seconds: 10 * 365 * 86400 },
      });
      expect(adv.status).toBe(200);
      const text = await Promise.race([
        stream.text(),
        new Promise<string>((r) => setTimeout(() => r('still open'), 2000)),
      ]);
      expect(text).toMatch(/stream\.closed/);
      await failure(
        await call(own.baseUrl, 'GET', '/api/public/v1/providers', access, { tenant: own.tenant }),
        401,
        'unauthorized',
        [access],
      );
    } finally {
      await own.close();
    }
  });

  it('runs created 15 at once: 15 distinct ids and tokens', async () => {
    const made = await Promise.all(
      Array.from({ length: 15 }, () => admin('/_sandbox/runs', 'POST', { ttlSeconds: 60 })),
    );
    const data = await Promise.all(
      made.map(async (r) => ((await r.json()) as { data: { runId: string; token: string } }).data),
    );
    expect(made.every((r) => r.status === 200 || r.status === 201)).toBe(true);
    expect(new Set(data.map((d) => d.runId)).size).toBe(15);
    expect(new Set(data.map((d) => d.token)).size).toBe(15);
  });

  it("one run's token with another run's admin id, and a run token on the sandbox's control plane: refused", async () => {
    const a = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 60 })).json()).data;
    const b = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 60 })).json()).data;
    const create = await call(s.baseUrl, 'POST', '/api/public/v1/connections', a.token, {
      tenant: a.tenant,
      body: {
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'run-a',
        capabilities: ['orders.read'],
      },
      headers: { 'idempotency-key': key() },
    });
    expect([200, 201]).toContain(create.status);
    const list = await call(s.baseUrl, 'GET', '/api/public/v1/connections', b.token, { tenant: b.tenant });
    expect(JSON.stringify(await list.json())).not.toContain('run-a');
    await failure(await call(s.baseUrl, 'GET', '/_sandbox', a.token), 403, 'forbidden', [a.token]);
    const other = await call(s.baseUrl, 'POST', '/_sandbox/runs', a.adminToken, { body: { ttlSeconds: 60 } });
    expect(other.status).toBeGreaterThanOrEqual(400);
    expect(await other.text()).not.toContain(a.adminToken);
  });

  it('a run ends on its own clock: its token 401 after the run admin advances past the TTL', async () => {
    const run = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 30 })).json()).data;
    const adv = await call(s.baseUrl, 'POST', '/_sandbox/clock/advance', run.adminToken, { body: { seconds: 31 } });
    expect(adv.status).toBe(200);
    await failure(
      await call(s.baseUrl, 'GET', '/api/public/v1/connections', run.token, { tenant: run.tenant }),
      401,
      'unauthorized',
      [run.token],
    );
  });

  it("one run's admin token moves its own clock only, and cannot reset or read the sandbox or another run", async () => {
    const a = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 600 })).json()).data;
    const b = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 600 })).json()).data;
    const offset = async (bearer: string) =>
      (await (await call(s.baseUrl, 'GET', '/_sandbox/clock', bearer)).json()).data.offsetMs;
    const [main0, b0] = [await offset(s.sandbox.adminToken), await offset(b.adminToken)];
    expect(
      (await call(s.baseUrl, 'POST', '/_sandbox/clock/advance', a.adminToken, { body: { seconds: 120 } })).status,
    ).toBe(200);
    expect(await offset(a.adminToken)).toBeGreaterThanOrEqual(120_000);
    expect(await offset(s.sandbox.adminToken)).toBe(main0);
    expect(await offset(b.adminToken)).toBe(b0);
    const runs = await call(s.baseUrl, 'GET', `/_sandbox/runs/${b.runId}`, a.adminToken);
    expect(runs.status).toBeGreaterThanOrEqual(400);
    expect(await runs.text()).not.toContain(b.token);
  });

  it('a run created with ttlSeconds 0, 604801, 1.5, "60" or an unknown field: 400 with a hint, no run made', async () => {
    const before = s.sandbox.runs?.count();
    for (const body of [
      { ttlSeconds: 0 },
      { ttlSeconds: 604_801 },
      { ttlSeconds: 1.5 },
      { ttlSeconds: '60' },
      { ttlSeconds: 60, tenant: 'x' },
    ]) {
      await failure(await admin('/_sandbox/runs', 'POST', body), 400, 'invalid_request', [s.sandbox.adminToken]);
    }
    expect(s.sandbox.runs?.count()).toBe(before);
  });

  it('a guessed run token (ncs_at_run_… shapes) and a run id as a bearer: 401', async () => {
    const run = (await (await admin('/_sandbox/runs', 'POST', { ttlSeconds: 60 })).json()).data;
    for (const guess of [run.runId, `${run.token.slice(0, -1)}x`, `ncs_at_${run.runId}`]) {
      await failure(
        await call(s.baseUrl, 'GET', '/api/public/v1/connections', guess, { tenant: run.tenant }),
        401,
        'unauthorized',
        [guess],
      );
    }
  });

  it.each([
    ['a 20 KB client id', `?client=${'c'.repeat(20_000)}`],
    ['__proto__', '?client=__proto__&tenant=constructor'],
    ['HTML', `?client=${encodeURIComponent('<script>x</script>')}`],
    ['two clients', '?client=a&client=b'],
    ['a NUL', '?client=%00'],
  ])(
    'client report with %s: JSON with nosniff, never a 500 (did not hold: no nosniff on an echo)',
    async (_, query) => {
      const res = await admin(`/_sandbox/client-report${query}`);
      const text = await res.text();
      expect([200, 400], text.slice(0, 300)).toContain(res.status);
      // an echo inside JSON is data, never a page
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(text.length).toBeLessThan(200_000);
    },
  );

  it.each([
    ['an unknown webhookId', { webhookId: 'wh_nope' }, 404],
    ['a 10 KB webhookId', { webhookId: `wh_${'x'.repeat(10_000)}` }, 400],
    ['timeoutMs 0', { webhookId: 'wh_nope', timeoutMs: 0 }, 400],
    ['timeoutMs 10^9', { webhookId: 'wh_nope', timeoutMs: 1e9 }, 400],
    ['a tenant that does not exist', { webhookId: 'wh_nope', tenant: 'nobody' }, 404],
  ])('receiver check with %s: the envelope', async (_, body, status) => {
    const res = await admin('/_sandbox/receiver-check', 'POST', body);
    const json = await failure(res, status, status === 404 ? 'not_found' : 'invalid_request');
    expect(JSON.stringify(json).length).toBeLessThan(3000);
  });
});
