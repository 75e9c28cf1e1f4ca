import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';

// Hardening round 4 (beside issue 23): the attacks that did not hold, each over real HTTP against one
// server. The ones that held are listed in README, Reliability ("attacks tried").
let s: RunningServer;
let port: number;
beforeAll(async () => {
  s = await serve({ port: 0, rateLimit: false, webhooks: { maxReceiversPerTenant: 3 }, maxTokensPerClient: 5 });
  port = Number(new URL(s.baseUrl).port);
});
afterAll(() => s?.close());

const auth = () => ({ authorization: `Bearer ${s.token}`, 'x-service-tenant': s.tenant });

/** Raw bytes in, everything the server answers until it closes (bounded by maxMs), out. */
function raw(payload: string, maxMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    const timer = setTimeout(() => socket.destroy(), maxMs);
    socket.on('data', (d) => (out += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    socket.on('error', () => undefined);
    socket.write(payload);
  });
}

/** The status line and the failure envelope of a raw answer. */
function envelope(text: string) {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  return { status, json: JSON.parse(body) as { ok: boolean; error: { code: string; detail?: string } } };
}

describe('attacks round 4: input', () => {
  it('a query parameter named __proto__ is an unknown parameter (400), not a 500', async () => {
    for (const q of ['__proto__=1', '__proto__=', '__proto__=1&__proto__=2']) {
      const res = await fetch(`${s.baseUrl}/api/public/v1/providers?${q}`, { headers: auth() });
      const json = (await res.json()) as { error: { code: string; detail: string } };
      expect(res.status, q).toBe(400);
      expect(json.error.code).toBe('invalid_request');
      expect(json.error.detail).toContain('__proto__');
    }
    expect((await fetch(`${s.baseUrl}/api/public/v1/providers`, { headers: auth() })).status).toBe(200);
  });

  it('GET /audit-log?before= past any sequence number is a 400 naming the bound, not a 500', async () => {
    for (const before of ['1e308', '99999999999999999999999', '9007199254740992']) {
      const res = await fetch(`${s.baseUrl}/api/public/v1/audit-log?before=${before}`, { headers: auth() });
      const json = (await res.json()) as { error: { code: string; detail: string } };
      expect(res.status, before).toBe(400);
      expect(json.error.detail).toMatch(/before must be <= 9007199254740991/);
    }
    const ok = await fetch(`${s.baseUrl}/api/public/v1/audit-log?before=9007199254740991`, { headers: auth() });
    expect(ok.status).toBe(200);
  });
});

describe('attacks round 4: transport', () => {
  it('CONNECT gets the envelope (node closed the socket without a word)', async () => {
    const { status, json } = envelope(await raw('CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n'));
    expect(status).toBe(400);
    expect(json.error.code).toBe('invalid_request');
    expect(json.error.detail).toMatch(/not a proxy/);
  });

  it('an HTTP/1.1 request without Host, or with two, gets the envelope (node: a bare 400, or the first Host)', async () => {
    const none = envelope(await raw('GET /api/public/v1 HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(none.status).toBe(400);
    expect(none.json.error.detail).toMatch(/needs a Host header/);
    const two = envelope(await raw('GET /api/public/v1 HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n'));
    expect(two.status).toBe(400);
    expect(two.json.error.detail).toMatch(/more than one Host/);
    // HTTP/1.0 has no Host duty.
    expect(await raw('GET /api/public/v1 HTTP/1.0\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('an Expect other than 100-continue gets the envelope (node: a bare 417); 100-continue still works', async () => {
    const body = '{"operation":"connection.create"}';
    const head = (expect: string) =>
      `POST /api/public/v1/idempotency-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.token}\r\n` +
      `x-service-tenant: ${s.tenant}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n` +
      `Expect: ${expect}\r\nConnection: close\r\n\r\n`;
    const other = envelope(await raw(head('102-processing') + body));
    expect(other.status).toBe(400);
    expect(other.json.error.detail).toMatch(/100-continue/);
    const cont = await raw(head('100-continue') + body);
    expect(cont).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('an absolute-form request target is routed by its path (RFC 9112 3.2.2), whatever authority it names', async () => {
    for (const authority of [`127.0.0.1:${port}`, 'evil.example']) {
      const text = await raw(
        `GET http://${authority}/api/public/v1/providers?category=pos HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Authorization: Bearer ${s.token}\r\nx-service-tenant: ${s.tenant}\r\nConnection: close\r\n\r\n`,
      );
      expect(text, authority).toMatch(/^HTTP\/1\.1 200 /);
      expect(text).toContain('"providers"');
    }
  });
});

describe('attacks round 4: resources', () => {
  it('a tenant has at most maxReceiversPerTenant receivers; past it a 400 with a hint, and a removal frees a place', async () => {
    const create = (i: number) =>
      fetch(`${s.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json', 'idempotency-key': `round4-receiver-${i}` },
        body: JSON.stringify({ url: `http://127.0.0.1:9/hook-${i}`, events: ['order.paid'] }),
      });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create(i);
      expect(res.status).toBe(200);
      ids.push(((await res.json()) as { data: { id: string } }).data.id);
    }
    const refused = await create(3);
    const json = (await refused.json()) as { error: { code: string; detail: string; hint: string } };
    expect(refused.status).toBe(400);
    expect(json.error.code).toBe('invalid_request');
    expect(json.error.detail).toMatch(/3 webhook receivers/);
    expect(json.error.hint).toMatch(/DELETE \/api\/public\/v1\/webhooks/);
    const list = await fetch(`${s.baseUrl}/api/public/v1/webhooks`, { headers: auth() });
    expect(((await list.json()) as { data: { count: number } }).data.count).toBe(3);
    const removed = await fetch(`${s.baseUrl}/api/public/v1/webhooks/${ids[0]}`, {
      method: 'DELETE',
      headers: { ...auth(), 'idempotency-key': 'round4-receiver-delete' },
    });
    expect(removed.status).toBe(200);
    expect((await create(4)).status).toBe(200);
  });
});

describe('attacks round 4: idempotency across clients', () => {
  it("another client of the same tenant replaying a receiver's key and body gets a conflict, never its signing secret", async () => {
    const token = await fetch(`${s.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('network-integrator:ni-sandbox-secret-3b7d9e2f0a6c4851').toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const other = ((await token.json()) as { access_token: string }).access_token;
    const list = await fetch(`${s.baseUrl}/api/public/v1/webhooks`, { headers: auth() });
    for (const w of ((await list.json()) as { data: { webhooks: { id: string }[] } }).data.webhooks)
      await fetch(`${s.baseUrl}/api/public/v1/webhooks/${w.id}`, {
        method: 'DELETE',
        headers: { ...auth(), 'idempotency-key': `round4-clean-${w.id}` },
      });
    const body = JSON.stringify({ url: 'http://127.0.0.1:9/owner', events: ['order.paid'] });
    const post = (authorization: string) =>
      fetch(`${s.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: {
          authorization,
          'x-service-tenant': s.tenant,
          'content-type': 'application/json',
          'idempotency-key': 'round4-receiver-owner',
        },
        body,
      });
    const owner = (await (await post(`Bearer ${s.token}`)).json()) as { data: { signingSecret: string } };
    expect(owner.data.signingSecret).toMatch(/^whsec_/);
    const replay = await post(`Bearer ${other}`);
    const text = await replay.text();
    expect(replay.status).toBe(409);
    expect(JSON.parse(text).error.code).toBe('idempotency_conflict');
    expect(text).not.toContain(owner.data.signingSecret);
    // The creator itself still gets its replay (and its secret) back.
    const again = (await (await post(`Bearer ${s.token}`)).json()) as {
      data: { signingSecret: string };
      meta: { replayed: boolean };
    };
    expect(again.meta.replayed).toBe(true);
    expect(again.data.signingSecret).toBe(owner.data.signingSecret);
  });
});

describe('attacks round 4: tokens a client can pile up', () => {
  it("keeps at most maxTokensPerClient per client: the oldest stops working, other clients' tokens do not", async () => {
    const issue = async () => {
      const res = await fetch(`${s.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from('catalog-reader:cr-sandbox-secret-1a2b3c4d5e6f7081').toString('base64')}`,
        },
        body: 'grant_type=client_credentials',
      });
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) tokens.push(await issue());
    const use = (token: string) =>
      fetch(`${s.baseUrl}/api/public/v1/providers`, {
        headers: { authorization: `Bearer ${token}`, 'x-service-tenant': s.tenant },
      });
    const first = await use(tokens[0] ?? '');
    expect(first.status).toBe(401);
    expect(((await first.json()) as { error: { detail: string } }).error.detail).toMatch(/not recognised/);
    for (const t of tokens.slice(1)) expect((await use(t)).status).toBe(200);
    expect((await use(s.token)).status).toBe(200);
  });
});
