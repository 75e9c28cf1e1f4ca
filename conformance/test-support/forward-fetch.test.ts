import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwardFetch } from './forward-fetch.ts';

/** Echoes what arrived (raw header names and values in order, the body) with repeated and encoded answers. */
function answer(req: IncomingMessage, res: ServerResponse) {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const seen = JSON.stringify({
      method: req.method,
      headers: req.rawHeaders.slice(2),
      body: Buffer.concat(chunks).toString(),
    });
    if (req.url === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync(seen));
    if (req.url === '/empty') return void res.writeHead(204).end();
    if (req.url === '/moved') return void res.writeHead(302, { location: '/x' }).end();
    res.setHeader('x-b', ['1', '2']);
    res.setHeader('set-cookie', ['a=1', 'b=2']);
    res.setHeader('content-type', 'application/json');
    res.end(`\uFEFF${seen}`);
  });
}

describe('the test proxies forward as Node fetch would, without its streams', () => {
  const server = createServer(answer);
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const views = async (path: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const viaFetch = await fetch(`${base}${path}`, { ...init, redirect: 'manual' });
    const viaForward = await forwardFetch(`${base}${path}`, { ...init, redirect: 'manual' });
    const list = (h: { forEach(cb: (v: string, k: string) => void): void }) => {
      const out: string[] = [];
      h.forEach((v, k) => {
        out.push(`${k}: ${v}`);
      });
      return out.filter((l) => !/^(date|keep-alive|connection): /.test(l));
    };
    return [
      {
        status: viaFetch.status,
        headers: list(viaFetch.headers),
        body: viaFetch.body === null,
        text: await viaFetch.text(),
      },
      {
        status: viaForward.status,
        headers: list(viaForward.headers),
        body: viaForward.body === null,
        text: await viaForward.text(),
      },
    ];
  };

  it.each([
    [
      'a POST without content type',
      '/',
      { method: 'POST', headers: { authorization: 'Bearer t', 'x-service-tenant': 'a' }, body: 'x' },
    ],
    [
      'a POST naming its own',
      '/',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'user-agent': 'kit' },
        body: '{}',
      },
    ],
    ['a GET', '/', { method: 'GET', headers: {} }],
    ['a gzip answer', '/gzip', { method: 'GET', headers: { 'accept-encoding': 'gzip' } }],
    ['a 204', '/empty', { method: 'DELETE', headers: {} }],
    ['a HEAD', '/', { method: 'HEAD', headers: {} }],
    ['a redirect (manual)', '/moved', { method: 'GET', headers: {} }],
  ])('%s: the same request on the wire and the same answer', async (_what, path, init) => {
    const [viaFetch, viaForward] = await views(path, init);
    expect(viaForward).toEqual(viaFetch);
  });

  it('refuses to follow a redirect instead of answering differently from fetch', async () => {
    await expect(forwardFetch(`${base}/moved`, { method: 'GET', headers: {} })).rejects.toThrow(
      /does not follow redirects/,
    );
  });
});
