import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, createKitClient, RequestCancelled } from './http-client.ts';

type Route = (req: IncomingMessage, res: ServerResponse) => void;
const routes: Record<string, Route> = {};
const server = createServer((req, res) => (routes[req.url ?? ''] ?? ((_, r) => r.writeHead(404).end()))(req, res));
let base = '';

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('kit HTTP client (undici fetch over loopback)', () => {
  it('sends a safe request once more when its connection is closed under it before any answer, never a write', async () => {
    let gets = 0;
    routes['/closing'] = (req, res) => {
      // The first GET (and every POST) finds its connection closed, as an idle keep-alive socket the server dropped.
      if (req.method === 'GET' && ++gets > 1)
        return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      req.socket.destroy();
    };
    const client = createKitClient({ retry: false });
    const ex = await client.send({ method: 'GET', url: `${base}/closing` });
    expect([ex.status, ex.text, gets]).toEqual([200, 'ok', 2]);
    await expect(client.send({ method: 'POST', url: `${base}/closing`, body: '{}' })).rejects.toBeInstanceOf(
      ConnectionError,
    );
  });

  it('sends a write safe to repeat once more on a closed connection: under an Idempotency-Key, or a client-credentials grant', async () => {
    const seen: string[] = [];
    routes['/closing-write'] = (req, res) => {
      seen.push(String(req.headers['idempotency-key'] ?? req.headers['content-type']));
      if (seen.length % 2 === 0) return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      req.socket.destroy();
    };
    const client = createKitClient({ retry: false });
    const keyed = await client.send({
      method: 'POST',
      url: `${base}/closing-write`,
      headers: { 'Idempotency-Key': 'key-repeat-001' },
      body: '{}',
    });
    expect([keyed.status, seen]).toEqual([200, ['key-repeat-001', 'key-repeat-001']]);
    const grant = await client.send({
      method: 'POST',
      url: `${base}/closing-write`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=a',
    });
    expect([grant.status, seen.length]).toEqual([200, 4]);
  });

  it('records the exchange: request, status, lower-cased headers, body, JSON and requestId', async () => {
    routes['/echo'] = (req, res) => {
      let body = '';
      req
        .on('data', (c) => (body += c))
        .on('end', () => {
          res.writeHead(201, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_hdr' });
          res.end(JSON.stringify({ ok: true, data: { body, raw: req.rawHeaders }, meta: { requestId: 'req_body' } }));
        });
    };
    const seen: unknown[] = [];
    const client = createKitClient({ onExchange: (ex) => seen.push(ex) });
    const ex = await client.send({
      method: 'POST',
      url: `${base}/echo`,
      headers: { 'X-Service-Tenant': 't1' },
      body: '{"a":1}',
    });
    expect(ex).toMatchObject({
      method: 'POST',
      status: 201,
      requestBody: '{"a":1}',
      requestId: 'req_body',
      attempts: 1,
    });
    expect(ex.headers['x-request-id']).toBe('req_hdr');
    const data = (ex.json as { data: { body: string; raw: string[] } }).data;
    expect(data.body).toBe('{"a":1}');
    // Header names leave in the letter case given (the case-insensitivity check depends on it).
    expect(data.raw).toContain('X-Service-Tenant');
    expect(seen).toEqual([ex]);
  });

  it('retries 500 and 429 under the interface policy with the injected sleep', async () => {
    let calls = 0;
    routes['/flaky'] = (_req, res) => {
      calls++;
      if (calls < 3) res.writeHead(calls === 1 ? 500 : 429, { 'retry-after': '0' }).end('{}');
      else res.writeHead(200, { 'x-request-id': 'req_ok' }).end('not json');
    };
    const waits: number[] = [];
    const client = createKitClient({ retry: { sleep: async (ms) => void waits.push(ms), random: () => 0 } });
    const ex = await client.send({ method: 'GET', url: `${base}/flaky` });
    expect([ex.status, ex.attempts, ex.json, ex.requestId]).toEqual([200, 3, undefined, 'req_ok']);
    expect(waits).toEqual([500, 1000]);
    calls = 0;
    const noRetry = await client.send({ method: 'GET', url: `${base}/flaky`, retry: false });
    expect([noRetry.status, noRetry.attempts]).toEqual([500, 1]);
  });

  it('stops after the headers of a stream that never ends when readBody is false', async () => {
    routes['/stream'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('id: 1\ndata: x\n\n');
    };
    const ex = await createKitClient({ timeoutMs: 2000 }).send({
      method: 'GET',
      url: `${base}/stream`,
      readBody: false,
    });
    expect(ex.status).toBe(200);
    expect(ex.headers['content-type']).toBe('text/event-stream');
    expect(ex.text).toBe('');
  });

  it('reports an unreachable target and a silent one as ConnectionError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await createKitClient()
      .send({ method: 'GET', url: `http://127.0.0.1:${port}/` })
      .catch((e) => e);
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toMatch(/cannot reach .*ECONNREFUSED/);

    routes['/silent'] = () => undefined;
    const slow = await createKitClient({ timeoutMs: 100 })
      .send({ method: 'GET', url: `${base}/silent` })
      .catch((e) => e);
    expect(slow).toBeInstanceOf(ConnectionError);
    expect(slow.message).toMatch(/within 100 ms/);
  });

  it('sends its default headers on every call unless the request names them, and reads at most maxBodyBytes', async () => {
    routes['/headers'] = (req, res) => res.writeHead(200).end(JSON.stringify(req.headers));
    routes['/endless'] = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'y'.repeat(16 * 1024);
      const pump = () => {
        while (res.write(chunk));
        res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    };
    const client = createKitClient({ defaultHeaders: { 'Service-Version': '2026-07-01' }, maxBodyBytes: 100_000 });
    const seen = async (req: Parameters<typeof client.send>[0]) =>
      JSON.parse((await client.send(req)).text) as Record<string, string>;
    expect((await seen({ method: 'GET', url: `${base}/headers` }))['service-version']).toBe('2026-07-01');
    expect(
      (await seen({ method: 'GET', url: `${base}/headers`, headers: { 'service-version': '2026-06-12' } }))[
        'service-version'
      ],
    ).toBe('2026-06-12');
    expect(
      (await seen({ method: 'GET', url: `${base}/headers`, omitDefaultHeaders: true }))['service-version'],
    ).toBeUndefined();
    const ex = await client.send({ method: 'GET', url: `${base}/endless` });
    expect([ex.status, ex.text.length, ex.bodyCappedAt, ex.json]).toEqual([200, 100_000, 100_000, undefined]);
    expect(client.stats?.cappedBodies).toBe(1);
  });

  it("a request's signal: refused once fired, a GET on its way cut short, a POST on its way answered", async () => {
    let posted = 0;
    const held: ServerResponse[] = [];
    routes['/held'] = (req, res) => {
      if (req.method === 'POST') posted++;
      held.push(res);
    };
    const client = createKitClient({ retry: false, timeoutMs: 30_000 });
    const stop = new AbortController();
    const get = client.send({ method: 'GET', url: `${base}/held`, signal: stop.signal });
    const post = client.send({ method: 'POST', url: `${base}/held`, body: '{}', signal: stop.signal });
    while (held.length < 2) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await expect(get).rejects.toBeInstanceOf(RequestCancelled);
    for (const res of held) if (!res.destroyed) res.writeHead(201).end('{"id":"made"}');
    expect(await post).toMatchObject({ status: 201, json: { id: 'made' } });
    await expect(client.send({ method: 'POST', url: `${base}/held`, signal: stop.signal })).rejects.toBeInstanceOf(
      RequestCancelled,
    );
    expect(posted).toBe(1);
    await expect(client.openStream({ method: 'GET', url: `${base}/held`, signal: stop.signal })).rejects.toBeInstanceOf(
      RequestCancelled,
    );
  });
});
