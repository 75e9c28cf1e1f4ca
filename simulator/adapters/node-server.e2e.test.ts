import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../app/serve.ts';

/** Sends raw bytes and collects everything the server answers until it closes (bounded). */
function raw(
  port: number,
  chunks: (string | Buffer)[],
  opts: { gapMs?: number; maxMs?: number } = {},
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let out = '';
    const done = () => resolve(out);
    const timer = setTimeout(() => {
      socket.destroy();
      done();
    }, opts.maxMs ?? 3000);
    socket.on('data', (d) => (out += d));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', () => undefined);
    let i = 0;
    const next = () => {
      if (i >= chunks.length || socket.destroyed) return;
      socket.write(chunks[i++]!);
      setTimeout(next, opts.gapMs ?? 0);
    };
    socket.on('connect', next);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));

describe('node:http transport hardening', () => {
  let s: RunningServer;
  let port: number;
  beforeAll(async () => {
    s = await serve({
      port: 0,
      maxBodyBytes: 1024,
      limits: {
        headersTimeoutMs: 300,
        requestTimeoutMs: 600,
        maxHeaderBytes: 4096,
        keepAliveTimeoutMs: 200,
        maxRequestsPerSocket: 2,
      },
    });
    port = Number(new URL(s.baseUrl).port);
  });
  afterAll(() => s.close());

  it('oversized headers get the failure envelope, not a bare 431', async () => {
    const res = await raw(port, [`GET /api/public/v1 HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(8000)}\r\n\r\n`]);
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect(bodyOf(res)).toMatchObject({
      ok: false,
      error: { code: 'invalid_request' },
      meta: { requestId: expect.stringMatching(/^req_/) },
    });
  });

  it('a slowloris client is cut off after the header timeout with the envelope', async () => {
    const started = Date.now();
    const res = await raw(
      port,
      ['GET /api/public/v1 HTTP/1.1\r\n', 'Host: x\r\n', 'X-A: 1\r\n', 'X-B: 2\r\n', 'X-C: 3\r\n', 'X-D: 4\r\n'],
      { gapMs: 250, maxMs: 5000 },
    );
    expect(Date.now() - started).toBeLessThan(4000);
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect(bodyOf(res).error.detail).toMatch(/not completed in time/);
  });

  it('a body over the limit -> 400 with a clear detail, and the connection is closed', async () => {
    const token = s.token;
    const body = JSON.stringify({ connectorId: 'x'.repeat(5000), capability: 'orders.read' });
    const res = await raw(port, [
      `POST /api/public/v1/capabilities HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nx-service-tenant: ${s.tenant}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    ]);
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect(res.toLowerCase()).toContain('connection: close');
    expect(bodyOf(res).error.detail).toMatch(/larger than this deployment accepts/);
    expect(res).not.toContain(token);
  });

  it('garbage instead of HTTP gets the envelope', async () => {
    const res = await raw(port, ['\u0000\u0001 NOT HTTP AT ALL\r\n\r\n']);
    expect(res).toMatch(/^HTTP\/1\.1 400/);
    expect(bodyOf(res).ok).toBe(false);
  });

  it('keep-alive connections serve at most maxRequestsPerSocket requests', async () => {
    const req = 'GET /api/public/v1 HTTP/1.1\r\nHost: x\r\n\r\n';
    const res = await raw(port, [req, req, req], { gapMs: 50, maxMs: 2000 });
    expect(res.match(/HTTP\/1\.1 200/g)?.length).toBe(2);
  });

  it('duplicate credential headers are refused with the envelope, never merged into access', async () => {
    const token = s.token;
    const twoTokens = await raw(port, [
      `GET /api/public/v1/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nAuthorization: Bearer other\r\nx-service-tenant: ${s.tenant}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(twoTokens).toMatch(/^HTTP\/1\.1 401/);
    const twoTenants = await raw(port, [
      `GET /api/public/v1/providers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nx-service-tenant: ${s.tenant}\r\nx-service-tenant: alpine-bistro\r\nConnection: close\r\n\r\n`,
    ]);
    expect(twoTenants).toMatch(/^HTTP\/1\.1 403/);
    const body =
      '{"connectorId":"tillcraft-pos-cloud","environment":"sandbox","scopeLabel":"Dup","capabilities":["orders.read"]}';
    const twoKeys = await raw(port, [
      `POST /api/public/v1/connections HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nx-service-tenant: ${s.tenant}\r\nIdempotency-Key: key-one-1234\r\nIdempotency-Key: key-two-1234\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    ]);
    expect(twoKeys).toMatch(/^HTTP\/1\.1 400/);
    for (const res of [twoTokens, twoTenants, twoKeys]) {
      expect(bodyOf(res).ok).toBe(false);
      expect(res).not.toContain(token);
    }
    expect(await s.sandbox.state.connections.count()).toBe(0);
  });

  it('still answers normally afterwards', async () => {
    expect((await fetch(`${s.baseUrl}/api/public/v1`)).status).toBe(200);
  });
});
