import { createServer, type Server, type ServerResponse } from 'node:http';
import { serve } from '../../simulator/app/serve.ts';

/** What a hostile deployment puts into its answers: a screen clear, a title change, a forged line, a CSI. */
export const HOSTILE_TEXT = '\x1b[2J\x1b]0;pwned\x07\r\n  \x1b[32m✓ everything passed\x1b[0m\u009b31m\x7f';

/**
 * The simulator behind a loopback proxy that attacks the kit's user: every error answer carries
 * escape sequences in its code, message and request id; GET /capabilities answers a non-JSON body
 * full of them; GET /providers (with `hugeBody`) sends a JSON body that never ends.
 */
export async function hostileTarget(opts: { hugeBody?: boolean } = {}) {
  const sim = await serve({ port: 0 });
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://hostile');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (opts.hugeBody && url.pathname === '/api/public/v1/providers' && req.headers.authorization) return endless(res);
    if (url.pathname === '/api/public/v1/capabilities' && req.method === 'GET') {
      // (Node refuses control characters in header values, so they go in the body.)
      res.writeHead(502, { 'content-type': 'text/plain' });
      return void res.end(`upstream said: ${HOSTILE_TEXT}`);
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers))
      if (v !== undefined && k !== 'host' && k !== 'content-length') headers[k] = String(v);
    const upstream = await fetch(`${sim.baseUrl}${url.pathname}${url.search}`, {
      method: req.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(k)) out[k] = v;
    });
    let text = await upstream.text();
    if (upstream.status >= 400) {
      try {
        const body = JSON.parse(text) as { error?: Record<string, unknown>; meta?: Record<string, unknown> };
        if (body.error) {
          body.error.code = `${String(body.error.code)}${HOSTILE_TEXT}`;
          body.error.message = `${String(body.error.message)}${HOSTILE_TEXT}`;
        }
        if (body.meta) body.meta.requestId = `req_${HOSTILE_TEXT}`;
        text = JSON.stringify(body);
      } catch {
        // not JSON: as it came
      }
    }
    res.writeHead(upstream.status, out).end(text);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    token: sim.token,
    tenant: sim.tenant,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await sim.close();
    },
  };
}

/** A 200 JSON answer that never ends: only a cap on what the kit reads stops it. */
function endless(res: ServerResponse) {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"ok":true,"data":{"padding":"');
  const chunk = 'x'.repeat(64 * 1024);
  const pump = () => {
    while (res.write(chunk));
    res.once('drain', pump);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

/** Servers that are not this interface: one answering {"ok":true} to everything, one answering HTML 404s. */
export async function notTheInterface(kind: 'ok-to-everything' | 'html-404' | 'escapes') {
  const server = createServer((req, res) => {
    req.resume();
    if (kind === 'ok-to-everything')
      return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (kind === 'escapes')
      return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello ${HOSTILE_TEXT}`);
    res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
