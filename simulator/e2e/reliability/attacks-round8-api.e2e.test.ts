// Round-8 attacks on the OAuth token endpoint, idempotency keys of every character class across
// tenants, and webhook receivers (IPv6 loopback spellings, 100 receivers on one event). Loopback only.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../app/serve.ts';
import { basic, call, failure, key, oauthError, token } from './attacks-round7-helpers.ts';
import { api, useServer } from './attacks-round7-server.ts';
import { CLIENTS, ccToken } from './attacks-round8-helpers.ts';

let s: RunningServer;
useServer((srv) => {
  s = srv;
});
const BODY = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'R8 Api',
  capabilities: ['menu.read'],
};
const H = CLIENTS.harbour;

describe('round 8: OAuth token endpoint', () => {
  const tokenRaw = (path: string, body: string, headers: Record<string, string>) =>
    fetch(`${s.baseUrl}${path}`, { method: 'POST', headers, body }).then(async (r) => {
      const text = await r.text();
      return { status: r.status, json: JSON.parse(text), text };
    });

  it('Basic names one client, the body another client_id: refused, no token for either', async () => {
    const t = await token(
      s.baseUrl,
      { grant_type: 'client_credentials', client_id: CLIENTS.alpine.id },
      basic(H.id, H.secret),
    );
    expect(t.status, t.text).toBe(400);
    expect(['invalid_request', 'invalid_client']).toContain(t.json.error);
    expect(t.json.access_token).toBeUndefined();
  });

  it('client_secret in the query string of the token endpoint (RFC 6749 2.3.1: never in the URI): refused', async () => {
    const t = await tokenRaw(
      `/oauth/token?client_id=${H.id}&client_secret=${H.secret}`,
      'grant_type=client_credentials',
      { 'content-type': 'application/x-www-form-urlencoded' },
    );
    expect(t.status, t.text).not.toBe(200);
    expect(t.json.access_token).toBeUndefined();
    expect(t.text).not.toContain(H.secret);
  });

  it('Basic credentials form-encoded as RFC 6749 2.3.1 says (%2D for "-") are accepted', async () => {
    const id = H.id.replace(/-/g, '%2D');
    const secret = H.secret.replace(/-/g, '%2D');
    const t = await token(
      s.baseUrl,
      { grant_type: 'client_credentials' },
      `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`,
    );
    expect(t.status, t.text).toBe(200);
  });

  it('a scope naming one granted scope 2,000 times: one scope granted (or invalid_scope), never echoed in bulk', async () => {
    const t = await token(
      s.baseUrl,
      { grant_type: 'client_credentials', scope: Array(2000).fill('catalog:read').join(' ') },
      basic(H.id, H.secret),
    );
    expect([200, 400]).toContain(t.status);
    expect(t.text.length).toBeLessThan(2000);
    if (t.status === 200) expect(String(t.json.scope)).toBe('catalog:read');
  });

  it('an RFC 8707 resource naming another server: refused as invalid_target or ignored, never a 500', async () => {
    const t = await token(
      s.baseUrl,
      { grant_type: 'client_credentials', resource: 'http://127.0.0.1:1/api' },
      basic(H.id, H.secret),
    );
    expect(t.status, t.text).not.toBe(500);
    if (t.status !== 200) expect(['invalid_target', 'invalid_request']).toContain(t.json.error);
  });

  it('a client secret sent as a Bearer token to the token endpoint: invalid_client, secret not echoed', async () => {
    const t = await tokenRaw('/oauth/token', `grant_type=client_credentials&client_id=${H.id}`, {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Bearer ${H.secret}`,
    });
    oauthError(t, 401, 'invalid_client', [H.secret]);
  });

  it('a token of one client presented with the other tenant header: 403, no data of either tenant', async () => {
    const alpine = await ccToken(s.baseUrl, CLIENTS.alpine);
    const res = await call(s.baseUrl, 'GET', '/api/public/v1/connections', alpine, { tenant: H.tenant });
    await failure(res, 403, 'forbidden', [alpine]);
  });
});

describe('round 8: idempotency keys of every class, length 8 and 128, three tenants at once', () => {
  const classes = ['A', 'z', '7', '.', '_', ':', '-'];
  const keys = [
    ...classes.map((c) => c.repeat(8)),
    ...classes.map((c) => c.repeat(128)),
    'Aa0._:-Z',
    'Aa0._:-Z'.repeat(16),
  ];

  it('each key makes one connection per tenant, 3 concurrent sends each; case and class stay distinct', async () => {
    const tenants = [
      { t: s.token, tenant: H.tenant },
      { t: await ccToken(s.baseUrl, CLIENTS.alpine), tenant: CLIENTS.alpine.tenant },
      { t: await ccToken(s.baseUrl, CLIENTS.integrator), tenant: CLIENTS.alpine.tenant },
    ];
    const answers = await Promise.all(
      keys.flatMap((k) =>
        tenants.flatMap(({ t, tenant }) =>
          [0, 1, 2].map(() =>
            call(s.baseUrl, 'POST', '/api/public/v1/connections', t, {
              tenant,
              body: { ...BODY, scopeLabel: `k${k.length}${k[0]}` },
              headers: { 'idempotency-key': k },
            }).then(async (r) => ({ k, tenant, t, status: r.status, json: (await r.json()) as any })),
          ),
        ),
      ),
    );
    for (const r of answers) {
      // Two clients of alpine-bistro with one key: the second client's is a conflict (the caller is in the fingerprint).
      if (r.status !== 200) expect(r.json.error.code, JSON.stringify(r.json)).toBe('idempotency_conflict');
    }
    for (const k of keys)
      for (const tenant of [H.tenant, CLIENTS.alpine.tenant]) {
        const ids = new Set(
          answers.filter((r) => r.k === k && r.tenant === tenant && r.status === 200).map((r) => r.json.data.id),
        );
        expect(ids.size, `${k.slice(0, 10)} ${tenant}`).toBe(1);
      }
    const all = new Set(answers.filter((r) => r.status === 200).map((r) => r.json.data.id));
    expect(all.size).toBe(keys.length * 2);
  }, 30_000);

  it.each([['A'.repeat(7)], ['A'.repeat(129)], ['AAAA AAAA'], ['AAAA/AAAA'], ['AAAA+AAAA'], ['ÅAAAAAAA']])(
    'key %s just outside the pattern: 400, nothing made',
    async (k) => {
      const before = ((await (await api('GET', '/api/public/v1/connections')).json()) as any).data.count;
      const res = await api('POST', '/api/public/v1/connections', { body: BODY, headers: { 'idempotency-key': k } });
      await failure(res, 400, 'invalid_request');
      expect(((await (await api('GET', '/api/public/v1/connections')).json()) as any).data.count).toBe(before);
    },
  );
});

describe('round 8: webhook receivers', () => {
  let receiver: Server;
  let hook = '';
  const seen = new Map<string, number>();
  beforeAll(async () => {
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const id = `${req.url}|${String(req.headers['ncs-delivery'] ?? '')}`;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        res.end('ok');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  });
  afterAll(() => receiver.close());
  const register = (url: string, events = ['connection.created']) =>
    api('POST', '/api/public/v1/webhooks', { body: { url, events }, headers: { 'idempotency-key': key() } });

  it.each([
    ['http://[0:0:0:0:0:0:0:1]:9/h'],
    ['http://[::0001]:9/h'],
    ['http://[0000::1]:9/h'],
    ['http://[::ffff:7f00:1]:9/h'],
    ['http://[::ffff:127.0.0.2]:9/h'],
  ])('IPv6 loopback spelling %s: accepted like [::1] or refused with an envelope, never a 500', async (url) => {
    const res = await register(url);
    const text = await res.text();
    expect([200, 400], text).toContain(res.status);
    const json = JSON.parse(text);
    if (res.status === 400) expect(json.error.hint).toBeTruthy();
    else await api('DELETE', `/api/public/v1/webhooks/${json.data.id}`, { headers: { 'idempotency-key': key() } });
  });

  it.each([
    ['http://[::ffff:a9fe:a9fe]/h'],
    ['http://[::ffff:10.0.0.1]/h'],
    ['http://[64:ff9b::7f00:1]/h'],
    ['http://[fe80::1]/h'],
  ])('IPv6 spelling of a non-loopback address %s: refused 400', async (url) => {
    await failure(await register(url), 400, 'invalid_request');
  });

  it('100 receivers on one event: each gets its delivery exactly once, the API stays fast', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      const res = await register(`${hook}/r${i}`);
      const json = (await res.json()) as any;
      expect(res.status, JSON.stringify(json)).toBe(200);
      ids.push(json.data.id);
    }
    const t0 = Date.now();
    const made = await api('POST', '/api/public/v1/connections', { body: BODY, headers: { 'idempotency-key': key() } });
    expect(made.status).toBe(200);
    expect(Date.now() - t0).toBeLessThan(1000);
    const end = Date.now() + 15_000;
    while (Date.now() < end && new Set([...seen.keys()].map((k) => k.split('|')[0])).size < 100)
      await new Promise((r) => setTimeout(r, 100));
    const perReceiver = new Map<string, number>();
    for (const [k, n] of seen)
      perReceiver.set(k.split('|')[0] ?? '', (perReceiver.get(k.split('|')[0] ?? '') ?? 0) + n);
    expect(perReceiver.size).toBe(100);
    for (const n of perReceiver.values()) expect(n).toBe(1);
    // The 101st receiver is refused naming the limit.
    await failure(await register(`${hook}/r100`), 400, 'invalid_request');
    for (const id of ids)
      await api('DELETE', `/api/public/v1/webhooks/${id}`, { headers: { 'idempotency-key': key() } });
  }, 40_000);
});
