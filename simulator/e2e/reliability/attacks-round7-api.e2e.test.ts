import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../../app/serve.ts';
import { call, failure, key } from './attacks-round7-helpers.ts';
import { api, useServer } from './attacks-round7-server.ts';

// Hardening round 7 (see attacks-round7.e2e.test.ts): redelivery, Service-Version, OpenAPI ?version=, concurrent
// key issuance and the inspector's API with a valid session.
let s: RunningServer;
let hookUrl: string;
useServer((server, url) => {
  s = server;
  hookUrl = url;
});

describe('attacks round 7: webhooks, redelivery, Service-Version, OpenAPI', () => {
  const register = async () => {
    const res = await api('POST', '/api/public/v1/webhooks', {
      body: { url: hookUrl, events: ['connection.created'] },
      headers: { 'idempotency-key': key() },
    });
    expect([200, 201]).toContain(res.status);
    return ((await res.json()) as { data: { id: string; signingSecret: string } }).data;
  };
  const deliveries = async (id: string) =>
    (
      (await (await api('GET', `/api/public/v1/webhooks/${id}/deliveries`)).json()) as {
        data: { deliveries: { id: string }[] };
      }
    ).data.deliveries;
  const makeEvent = () =>
    api('POST', '/api/public/v1/connections', {
      body: {
        connectorId: 'tillcraft-pos-cloud',
        environment: 'sandbox',
        scopeLabel: 'r7',
        capabilities: ['orders.read'],
      },
      headers: { 'idempotency-key': key() },
    });

  it('a redelivery storm (60 at once of one delivery) stays bounded; the secret never comes back', async () => {
    const hook = await register();
    await makeEvent();
    await new Promise((r) => setTimeout(r, 200));
    const [d] = await deliveries(hook.id);
    expect(d).toBeTruthy();
    const all = await Promise.all(
      Array.from({ length: 60 }, () =>
        api('POST', `/api/public/v1/webhooks/${hook.id}/deliveries/${d?.id}/redeliver`, {
          headers: { 'idempotency-key': key() },
        }),
      ),
    );
    for (const r of all) expect(await r.text()).not.toContain(hook.signingSecret);
    expect(all.every((r) => r.status < 500)).toBe(true);
    expect((await deliveries(hook.id)).length).toBeLessThanOrEqual(500);
  });

  it('redelivering a delivery of a deleted receiver, or through a receiver of another tenant: 404', async () => {
    const hook = await register();
    await makeEvent();
    await new Promise((r) => setTimeout(r, 200));
    const [d] = await deliveries(hook.id);
    const del = await api('DELETE', `/api/public/v1/webhooks/${hook.id}`, { headers: { 'idempotency-key': key() } });
    expect(del.status).toBeLessThan(300);
    await failure(
      await api('POST', `/api/public/v1/webhooks/${hook.id}/deliveries/${d?.id}/redeliver`, {
        headers: { 'idempotency-key': key() },
      }),
      404,
      'not_found',
    );
  });

  it.each([
    ['empty', ''],
    ['an impossible date', '2026-02-30'],
    ['a 5 KB value', '2'.repeat(5000)],
    ['with a trailing tab', '2026-06-12\t'],
    ['two values', '2026-06-12, 2026-06-12'],
  ])(
    'Service-Version %s on the API, the control plane and OpenAPI: 400 naming the header, or served',
    async (_, value) => {
      for (const res of [
        await api('GET', '/api/public/v1/providers', { headers: { 'service-version': value } }),
        await call(s.baseUrl, 'GET', '/_sandbox', s.sandbox.adminToken, { headers: { 'service-version': value } }),
        await fetch(`${s.baseUrl}/api/public/v1/openapi.json`, { headers: { 'service-version': value } }),
      ]) {
        const text = await res.text();
        expect([200, 400], text.slice(0, 200)).toContain(res.status);
        if (res.status === 400) expect(text).toMatch(/Service-Version/i);
        expect(text).not.toContain('2'.repeat(300));
      }
    },
  );

  it.each(['../../../../etc/passwd', '2026-06-12%00', 'x'.repeat(5000), '2026-06-12&version=1999-01-01', '__proto__'])(
    'OpenAPI ?version=%s (JSON and YAML): 400 or 404 with the envelope, no file read',
    async (v) => {
      for (const path of ['/api/public/v1/openapi.json', '/api/public/v1/openapi.yaml']) {
        const res = await fetch(`${s.baseUrl}${path}?version=${v}`);
        const text = await res.text();
        expect([200, 400, 404], `${path} ${text.slice(0, 200)}`).toContain(res.status);
        expect(text).not.toMatch(/root:x:0/);
        expect(text).not.toContain('x'.repeat(300));
      }
    },
  );
});

describe('attacks round 7: idempotency keys and the inspector API', () => {
  it('50 key issuances at once: 50 distinct keys', async () => {
    const all = await Promise.all(
      Array.from({ length: 50 }, () =>
        api('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'connection.create' } }),
      ),
    );
    const keys = await Promise.all(
      all.map(async (r) => ((await r.json()) as { data: { idempotencyKey: string } }).data.idempotencyKey),
    );
    expect(new Set(keys).size).toBe(50);
  });

  it('an issued key used by 20 concurrent creations with 2 bodies: one connection, the rest replays or 409', async () => {
    const issued = await api('POST', '/api/public/v1/idempotency-keys', { body: { operation: 'connection.create' } });
    const k = ((await issued.json()) as { data: { idempotencyKey: string } }).data.idempotencyKey;
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api('POST', '/api/public/v1/connections', {
          body: {
            connectorId: 'tillcraft-pos-cloud',
            environment: 'sandbox',
            scopeLabel: `k${i % 2}`,
            capabilities: ['orders.read'],
          },
          headers: { 'idempotency-key': k },
        }),
      ),
    );
    const ids = new Set<string>();
    for (const r of all) {
      const j = await r.json();
      if (r.status < 300) ids.add(j.data.id);
      else expect(r.status).toBe(409);
    }
    expect(ids.size).toBe(1);
  });

  const session = async () => {
    const url = s.inspectorUrl ?? '';
    const res = await fetch(url, { redirect: 'manual' });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const secret = new URL(res.headers.get('location') ?? '', s.baseUrl).hash.replace(/^#session=/, '');
    return { cookie, 'x-ncs-inspector-session': secret, 'x-ncs-inspector': '1' };
  };

  it('inspector API with a valid session and hostile inputs: envelopes, never a 500', async () => {
    const h = await session();
    const get = (p: string) => fetch(`${s.baseUrl}/_sandbox/inspector/api${p}`, { headers: h });
    const post = (p: string, body: string) =>
      fetch(`${s.baseUrl}/_sandbox/inspector/api${p}`, {
        method: 'POST',
        headers: { ...h, 'content-type': 'application/json' },
        body,
      });
    for (const res of [
      await get('/journal/-1'),
      await get('/journal/1e999'),
      await get('/journal/__proto__'),
      await get(`/journal?limit=-5&status=${'9'.repeat(400)}&path=%00`),
      await get('/journal?limit=1e9'),
      await get('/connections?tenant=__proto__'),
      await get(`/audit?tenant=${'<b>'.repeat(50)}`),
      await post('/clock/advance', '{"seconds":-1}'),
      await post('/connections/..%2F..%2F_sandbox%2Freset/state', '{"state":"revoked"}'),
      await post('/deliveries/__proto__/redeliver', ''),
      await post('/rate-limit', '{"limit":-1}'),
      await post('/faults', '{"kind":"latency","latencyMs":1e12}'),
    ]) {
      const text = await res.text();
      expect(res.status, `${res.url} ${text.slice(0, 200)}`).toBeLessThan(500);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      if (res.status >= 400) expect(JSON.parse(text).error.hint, res.url).toBeTruthy();
      if (res.status >= 400) expect(text.length, res.url).toBeLessThan(3000);
    }
  });
});
