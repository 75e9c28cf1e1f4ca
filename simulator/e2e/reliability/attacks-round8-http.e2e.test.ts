// Round-8 attacks on HTTP/1.1 edges and the status stream of serve(): smuggling variants not tried
// before, NUL and tab in the request, a body promised with 100-continue and never sent, 50 pipelined
// requests, resumes near 2^53, 10,000-digit ids, another tenant's cursor, `q=0`. Loopback only.
import { describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../app/serve.ts';
import { call, failure, key } from './attacks-round7-helpers.ts';
import { api, useServer } from './attacks-round7-server.ts';
import { CLIENTS, ccToken, firstJson, raw, statuses } from './attacks-round8-helpers.ts';

let s: RunningServer;
let port = 0;
useServer((srv) => {
  s = srv;
  port = Number(new URL(srv.baseUrl).port);
});
const STACK = /\n\s+at |node:internal|TypeError|SyntaxError/;
const BODY = {
  connectorId: 'tillcraft-pos-cloud',
  environment: 'sandbox',
  scopeLabel: 'R8 Http',
  capabilities: ['menu.read'],
};
const head = (extra = '') =>
  `Host: 127.0.0.1\r\nAuthorization: Bearer ${s.token}\r\nx-service-tenant: ${s.tenant}\r\n${extra}`;
const count = async () => ((await (await api('GET', '/api/public/v1/connections')).json()) as any).data.count as number;

describe('round 8: smuggling and framing', () => {
  it('Transfer-Encoding folded onto a continuation line beside Content-Length: 400, nothing smuggled', async () => {
    const inner = 'GET /api/public/v1/providers HTTP/1.1\r\nHost: x\r\n\r\n';
    const body = `0\r\n\r\n${inner}`;
    const r = await raw(port, [
      `POST /api/public/v1/capabilities HTTP/1.1\r\n${head()}Content-Type: application/json\r\nContent-Length: ${body.length}\r\nTransfer-Encoding:\r\n chunked\r\n\r\n${body}`,
    ]);
    expect(statuses(r.text)).toEqual([400]);
    expect(firstJson(r.text)?.error?.code).toBe('invalid_request');
  });

  it('chunked with Content-Length: 0 and a request hidden after the last chunk on keep-alive: one answer only', async () => {
    const hidden = `POST /api/public/v1/connections HTTP/1.1\r\n${head(`Idempotency-Key: ${key()}\r\n`)}Content-Type: application/json\r\nContent-Length: ${JSON.stringify(BODY).length}\r\n\r\n${JSON.stringify(BODY)}`;
    const before = await count();
    const r = await raw(port, [
      `POST /api/public/v1/capabilities HTTP/1.1\r\n${head()}Content-Type: application/json\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n${hidden}`,
    ]);
    // RFC 9112 6.3: TE with CL is a smuggling attempt: answer 400 and close, never run the hidden request.
    expect(statuses(r.text)[0]).toBe(400);
    expect(statuses(r.text)).toHaveLength(1);
    expect(await count()).toBe(before);
  });

  it('a chunk extension carrying a fake header block is not read as headers', async () => {
    const r = await raw(port, [
      `POST /api/public/v1/capabilities HTTP/1.1\r\n${head()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;x-service-tenant=alpine-bistro;authorization=none\r\n{}\r\n0\r\n\r\n`,
    ]);
    expect(statuses(r.text)[0]).toBe(400);
    expect(firstJson(r.text)?.error?.code).toBe('invalid_request');
  });

  it.each([
    ['a NUL inside the Idempotency-Key value', `Idempotency-Key: abcd\u0000efgh1234\r\n`],
    ['a NUL inside the tenant value', `X-Other: 1\r\nx-service-tenant-2: a\u0000b\r\n`],
    ['a NUL in a header name', `X-Ev\u0000il: 1\r\n`],
  ])('%s: 400 envelope, no stack, no creation', async (_, extra) => {
    const before = await count();
    const r = await raw(port, [
      `POST /api/public/v1/connections HTTP/1.1\r\n${head(extra)}Content-Type: application/json\r\nContent-Length: ${JSON.stringify(BODY).length}\r\n\r\n${JSON.stringify(BODY)}`,
    ]);
    expect(statuses(r.text)[0]).toBe(400);
    expect(firstJson(r.text)?.ok).toBe(false);
    expect(r.text).not.toMatch(STACK);
    expect(await count()).toBe(before);
  });

  it('a tab between method and target: 400 envelope', async () => {
    const r = await raw(port, ['GET\t/api/public/v1 HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(statuses(r.text)[0]).toBe(400);
    expect(firstJson(r.text)?.ok).toBe(false);
  });

  it('absolute-form naming another host and port is served locally by path, never proxied', async () => {
    const r = await raw(port, [
      'GET http://127.0.0.1:1/api/public/v1 HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n',
    ]);
    expect(statuses(r.text)[0]).toBe(200);
    expect(r.text).toContain('"ok":true');
  });

  it('Expect: 100-continue and then no body: answered within the request timeout with an envelope', async () => {
    // A server of its own with a 2 s request timeout (15 s by default): the same path, not a 15 s wait.
    const quick = await serve({
      port: 0,
      rateLimit: false,
      limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000 },
    });
    try {
      const r = await raw(
        Number(new URL(quick.baseUrl).port),
        [
          `POST /api/public/v1/capabilities HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${quick.token}\r\nx-service-tenant: ${quick.tenant}\r\nContent-Type: application/json\r\nContent-Length: 40\r\nExpect: 100-continue\r\n\r\n`,
        ],
        { waitMs: 8000 },
      );
      const finals = statuses(r.text).filter((x) => x !== 100);
      expect(finals[0]).toBe(400);
      expect(r.closed).toBe(true);
      expect(r.ms).toBeLessThan(4000);
    } finally {
      await quick.close();
    }
  }, 15_000);

  it('50 pipelined requests in one write, a creation among them: 50 answers in order, one connection', async () => {
    const before = await count();
    const body = JSON.stringify(BODY);
    const k = key();
    const reqs = Array.from({ length: 50 }, (_, i) =>
      i === 25
        ? `POST /api/public/v1/connections HTTP/1.1\r\n${head(`Idempotency-Key: ${k}\r\n`)}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`
        : `GET /api/public/v1/providers HTTP/1.1\r\n${head()}\r\n`,
    ).join('');
    const r = await raw(port, [reqs], { waitMs: 5000 });
    expect(statuses(r.text)).toEqual(Array(50).fill(200));
    expect(await count()).toBe(before + 1);
  });
});

describe('round 8: stream resumes', () => {
  const stream = (headers: Record<string, string>, query = '', bearer = s.token, tenant = s.tenant) =>
    call(s.baseUrl, 'GET', `/api/public/v1/stream${query}`, bearer, { tenant, headers });
  const firstChunk = async (res: Response) => {
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const { value } = await reader.read();
    await reader.cancel();
    return new TextDecoder().decode(value);
  };

  it('1,000 resumes with cursors just under 2^53 (100 at a time): each answered, none 500, places freed', async () => {
    const top = 2 ** 53;
    for (let batch = 0; batch < 10; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 100 }, async (_, i) => {
          const res = await stream({ 'last-event-id': String(top - 1 - batch * 100 - i) });
          const status = res.status;
          if (res.headers.get('content-type')?.startsWith('text/event-stream')) await firstChunk(res);
          else await res.text();
          return status;
        }),
      );
      for (const st of answers) expect([200, 400]).toContain(st);
    }
    const after = await stream({});
    expect(after.status).toBe(200);
    await firstChunk(after);
    expect((await api('GET', '/api/public/v1/providers')).status).toBe(200);
  }, 60_000);

  it('a Last-Event-ID of 10,000 digits: 400 with a hint, the digits not echoed', async () => {
    const id = '9'.repeat(10_000);
    const res = await stream({ 'last-event-id': id });
    const f = await failure(res, 400, 'invalid_request');
    expect(JSON.stringify(f)).not.toContain('9'.repeat(300));
  });

  it("resuming a tenant stream with another tenant's (higher) cursor shows none of the other tenant's messages", async () => {
    const alpine = await ccToken(s.baseUrl, CLIENTS.alpine);
    for (let i = 0; i < 5; i++)
      await call(s.baseUrl, 'POST', '/api/public/v1/connections', alpine, {
        tenant: CLIENTS.alpine.tenant,
        body: { ...BODY, scopeLabel: 'ALPINE-SECRET-LABEL' },
        headers: { 'idempotency-key': key() },
      });
    const res = await stream({ 'last-event-id': '3' });
    expect(res.status).toBe(200);
    const text = await firstChunk(res);
    expect(text).not.toContain('ALPINE-SECRET-LABEL');
    expect(text).not.toContain('alpine-bistro');
  });

  it.each([['text/event-stream;q=0'], ['application/json, text/event-stream;q=0']])(
    'Accept: %s: not a 500; a stream only as text/event-stream, otherwise an envelope',
    async (accept) => {
      const res = await stream({ accept });
      expect(res.status).not.toBe(500);
      if (res.status === 200) {
        expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
        await firstChunk(res);
      } else {
        const text = await res.text();
        expect(JSON.parse(text).ok).toBe(false);
        expect(text).not.toMatch(STACK);
      }
    },
  );
});
