import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { serve, type RunningServer } from '../../app/serve.ts';
import { NCS_BIN as BIN, waitForReadyFile } from '../ready-file.ts';

/** GET with a Host header of our choosing (fetch does not allow one). */
function getWithHost(baseUrl: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens an anonymous stream from a given loopback source address; resolves with the status line. */
function openStream(port: number, localAddress: string): Promise<{ status: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.once('error', reject);
    socket.once('connect', () => socket.write('GET /api/public/v1/stream HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.once('data', (chunk) => resolve({ status: chunk.toString('latin1').split('\r\n')[0]!, socket }));
  });
}

describe('public origin from configuration; per-address cap of anonymous streams', () => {
  let s: RunningServer;
  beforeAll(async () => {
    s = await serve({ port: 0, stream: { limits: { maxClientsPerFeed: 50, maxAnonymousPerAddress: 5 } } });
  });
  afterAll(() => s.close());

  it('OAuth metadata names the listening address whatever Host header arrives', async () => {
    const res = await getWithHost(s.baseUrl, '/.well-known/oauth-authorization-server', 'evil.example');
    expect(res.status).toBe(200);
    const meta = JSON.parse(res.body);
    expect(meta.issuer).toBe(s.baseUrl);
    expect(meta.token_endpoint).toBe(`${s.baseUrl}/oauth/token`);
    expect(res.body).not.toContain('evil.example');
  });

  it('idle anonymous streams of one address are capped; other addresses still get the public feed', async () => {
    const port = Number(new URL(s.baseUrl).port);
    const sockets: Socket[] = [];
    onTestFinished(() => {
      for (const x of sockets) x.destroy();
    });
    for (let i = 0; i < 5; i++) {
      const open = await openStream(port, '127.0.0.2');
      sockets.push(open.socket);
      expect(open.status).toBe('HTTP/1.1 200 OK');
    }
    const refused = await openStream(port, '127.0.0.2');
    sockets.push(refused.socket);
    expect(refused.status).toBe('HTTP/1.1 429 Too Many Requests');
    const other = await openStream(port, '127.0.0.3');
    sockets.push(other.socket);
    expect(other.status).toBe('HTTP/1.1 200 OK');
  });

  it('ncs serve --public-url sets the issuer; --webhook-allow-host lets receivers use that host', async () => {
    const ready = join(mkdtempSync(join(tmpdir(), 'ncs-origin-')), 'ready.json');
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--quiet', '--ready-file', ready].concat([
        '--public-url',
        'https://sandbox.partner.test/',
        '--webhook-allow-host',
        'hooks.partner.test',
      ]),
      { stdio: 'ignore' },
    );
    onTestFinished(() => void child.kill('SIGKILL'));
    const info = await waitForReadyFile(ready);
    const meta = JSON.parse((await getWithHost(info.baseUrl, '/.well-known/oauth-authorization-server', 'x')).body);
    expect(meta).toMatchObject({
      issuer: 'https://sandbox.partner.test',
      token_endpoint: 'https://sandbox.partner.test/oauth/token',
    });
    const register = (url: string) =>
      fetch(`${info.baseUrl}/api/public/v1/webhooks`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${info.token}`,
          'x-service-tenant': info.tenant,
          'content-type': 'application/json',
          'idempotency-key': `origin-${url.length}-${Date.now()}`,
        },
        body: JSON.stringify({ url, events: ['order.paid'] }),
      });
    const ok = await register('https://hooks.partner.test/ncs');
    expect(ok.status, await ok.clone().text()).toBe(200);
    const refused = await register('https://elsewhere.partner.test/ncs');
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.hint).toContain('hooks.partner.test');
  });
});
