// myrtle: an aiohttp-style deployment of the interface on node:http; two loopback ports, one store.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CLIENT_ID, CLIENT_SECRET, TENANTS, tokenEndpoint } from './auth.ts';
import { ApiError, fail, newCtx } from './http.ts';
import { dispatch } from './routes.ts';
import { type MyrtleOptions, newStore, type Store } from './state.ts';

function app(s: Store): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ctx = newCtx(req, res, Buffer.concat(chunks).toString('utf8'));
      try {
        if (req.method === 'POST' && ctx.url.pathname === '/oauth2/token') return tokenEndpoint(s, ctx);
        dispatch(s, ctx);
      } catch (e) {
        // The error middleware: known errors keep their code, anything else is a bare `internal`.
        fail(ctx, e instanceof ApiError ? e : new ApiError('internal', 'Internal error; quote the request id.'));
      }
    });
  });
}

async function listen(srv: Server): Promise<string> {
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
}

export async function startMyrtle(options: MyrtleOptions = {}) {
  const s = newStore(options);
  const main = app(s);
  const alt = app(s);
  const baseUrl = await listen(main);
  const altBaseUrl = await listen(alt);
  return {
    baseUrl,
    altBaseUrl,
    tenant: TENANTS.tenant,
    otherTenant: TENANTS.other,
    foreignTenant: TENANTS.foreign,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    tokenUrl: `${baseUrl}/oauth2/token`,
    async close() {
      for (const srv of [main, alt]) {
        srv.closeAllConnections();
        await new Promise<void>((r) => srv.close(() => r()));
      }
    },
  };
}
